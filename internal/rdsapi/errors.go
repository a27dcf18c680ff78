package rdsapi

import (
	"errors"
	"fmt"
	"strings"
)

// Error is an error answer from the RDS OpenAPI: HTTP 4xx/5xx with the standard JSON body.
// Callers branch on Code, never on HTTPStatus: the cloud sends the same code with different
// statuses.
type Error struct {
	HTTPStatus int
	Code       string
	Message    string
	RequestID  string
	HostID     string
	Recommend  string
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("RDS API error %s (HTTP %d): %s", e.Code, e.HTTPStatus, e.Message)
	if e.RequestID != "" {
		msg += " (request id " + e.RequestID + ")"
	}
	return msg
}

// ErrorClass says how a caller should react to an error code.
type ErrorClass int

const (
	// ClassPermanent means fix the request; do not retry.
	ClassPermanent ErrorClass = iota
	// ClassThrottled means the caller was rate limited; retry with backoff.
	ClassThrottled
	// ClassTransient means a server-side failure; retry with backoff.
	ClassTransient
	// ClassBusy means the instance is in another task; retry until the operation's deadline.
	ClassBusy
	// ClassNotFound means the instance does not exist.
	ClassNotFound
	// ClassAuth means the credentials or the signature were refused; do not retry.
	ClassAuth
)

func (c ErrorClass) String() string {
	return [...]string{"permanent", "throttled", "transient", "busy", "not-found", "auth"}[c]
}

var codeClasses = map[string]ErrorClass{
	"Throttling":                              ClassThrottled,
	"Throttling.User":                         ClassThrottled,
	"Throttling.Api":                          ClassThrottled,
	"Rejected.Throttling":                     ClassThrottled,
	"ServiceUnavailable":                      ClassTransient,
	"InternalError":                           ClassTransient,
	"InvokeProxyFailure":                      ClassTransient,
	"ExternalFailure":                         ClassTransient,
	"RequestMetaDataFailed":                   ClassTransient,
	"CallLxSdkFailed":                         ClassTransient,
	"OperationDenied.DBInstanceStatus":        ClassBusy,
	"IncorrectDBInstanceState":                ClassBusy,
	"OperationDenied.ReadDBInstanceStatus":    ClassBusy,
	"OperationDenied.MasterDBInstanceState":   ClassBusy,
	"OperationDenied.PrimaryDBInstanceStatus": ClassBusy,
	"ConcurrentTaskExceeded":                  ClassBusy,
	"InvalidOrderTask.NotSupport":             ClassBusy,
	"LockTimeout":                             ClassBusy,
	"InvalidConcurrentOperate":                ClassBusy,
	"InvalidDBInstanceId.NotFound":            ClassNotFound,
	"InvalidDBInstanceName.NotFound":          ClassNotFound,
	"InvalidAccessKeyId.NotFound":             ClassAuth,
	"InvalidAccessKeyId.Inactive":             ClassAuth,
	"IncompleteSignature":                     ClassAuth,
	"SignatureDoesNotMatch":                   ClassAuth,
	"SignatureNonceUsed":                      ClassAuth,
	"InvalidSecurityToken.Expired":            ClassAuth,
	"InvalidSecurityToken.Malformed":          ClassAuth,
	"Forbidden.RAM":                           ClassAuth,
	"Forbidden":                               ClassAuth,
}

// ClassifyCode maps an Alibaba error code to its class. Unlisted codes that contain "Throttling"
// count as throttling, and unlisted codes on a 5xx answer as transient.
func ClassifyCode(code string, httpStatus int) ErrorClass {
	if class, ok := codeClasses[code]; ok {
		return class
	}
	if strings.Contains(code, "Throttling") {
		return ClassThrottled
	}
	if httpStatus >= 500 && httpStatus != 501 {
		return ClassTransient
	}
	return ClassPermanent
}

// Class is the error's class by code.
func (e *Error) Class() ErrorClass { return ClassifyCode(e.Code, e.HTTPStatus) }

func classOf(err error) (ErrorClass, bool) {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr.Class(), true
	}
	return 0, false
}

// IsNotFound reports whether err says the instance does not exist.
func IsNotFound(err error) bool { c, ok := classOf(err); return ok && c == ClassNotFound }

// IsThrottled reports whether err is a throttling answer.
func IsThrottled(err error) bool { c, ok := classOf(err); return ok && c == ClassThrottled }

// IsBusy reports whether err says the instance is busy with another task.
func IsBusy(err error) bool { c, ok := classOf(err); return ok && c == ClassBusy }

// IsTransient reports whether err is a server-side failure worth retrying.
func IsTransient(err error) bool { c, ok := classOf(err); return ok && c == ClassTransient }

// ErrorCode returns the API error code in err, or "".
func ErrorCode(err error) string {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr.Code
	}
	return ""
}

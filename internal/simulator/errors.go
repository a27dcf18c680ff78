package simulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/uuid"
)

// apiError is an answer with the standard RDS error body.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func newErr(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

func errMissing(name string) *apiError {
	return newErr(400, "MissingParameter", "The input parameter %q that is mandatory for processing this request is not supplied.", name)
}

func errInvalid(name, format string, args ...any) *apiError {
	return newErr(400, "InvalidParameter", "The specified parameter %q is not valid: %s", name, fmt.Sprintf(format, args...))
}

func errNotFound(id string) *apiError {
	return newErr(404, "InvalidDBInstanceId.NotFound", "The DBInstanceId %q provided does not exist in records.", id)
}

func errBusy(id, status string) *apiError {
	return newErr(400, "OperationDenied.DBInstanceStatus", "Operation is denied by the current database instance status: %s is %s.", id, status)
}

func errInternal(detail string) *apiError {
	return newErr(500, "InternalError", "The request processing has failed due to some unknown error, exception or failure. (%s)", detail)
}

func newRequestID() string { return strings.ToUpper(uuid.NewString()) }

// writeError sends the standard error body {Code,HostId,Message,Recommend,RequestId}, as JSON or
// as XML under <Error>.
func writeError(w http.ResponseWriter, r *http.Request, f answerFormat, requestID string, e *apiError) {
	host := r.Host
	if host == "" {
		host = "rds.aliyuncs.com"
	}
	body := struct {
		Code      string `json:"Code"`
		HostID    string `json:"HostId"`
		Message   string `json:"Message"`
		Recommend string `json:"Recommend"`
		RequestID string `json:"RequestId"`
	}{
		Code:      e.code,
		HostID:    host,
		Message:   e.message,
		Recommend: "https://api.alibabacloud.com/troubleshoot?q=" + url.QueryEscape(e.code) + "&product=Rds&requestId=" + requestID,
		RequestID: requestID,
	}
	writeAnswer(w, f, e.status, "Error", body)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	data, err := json.Marshal(body)
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(`{"Code":"InternalError","Message":"response encoding failed"}`)
	}
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

package simulator

import (
	"strconv"
	"strings"
	"time"
)

// params are the API parameters of one request: the union of query and form body.
type params map[string]string

func (p params) get(name string) string { return p[name] }

func (p params) has(name string) bool {
	_, ok := p[name]
	return ok
}

func (p params) required(name string) (string, *apiError) {
	v := strings.TrimSpace(p[name])
	if v == "" {
		return "", errMissing(name)
	}
	return v, nil
}

// integer parses an optional integer; ok is false when the parameter is absent or empty.
func (p params) integer(name string) (n int64, ok bool, err *apiError) {
	v := strings.TrimSpace(p[name])
	if v == "" {
		return 0, false, nil
	}
	n, perr := strconv.ParseInt(v, 10, 64)
	if perr != nil {
		return 0, false, errInvalid(name, "%q is not an integer", truncate(v))
	}
	return n, true, nil
}

// boolean parses an optional true/false (any case); absent or empty is false.
func (p params) boolean(name string) (bool, *apiError) {
	v := strings.TrimSpace(p[name])
	switch strings.ToLower(v) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, errInvalid(name, "%q is not true or false", truncate(v))
}

// oneOf returns the canonical spelling of an optional enumerated value (compared
// case-insensitively), def when absent.
func (p params) oneOf(name, def string, allowed ...string) (string, *apiError) {
	v := strings.TrimSpace(p[name])
	if v == "" {
		return def, nil
	}
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a, nil
		}
	}
	return "", errInvalid(name, "%q is not one of %s", truncate(v), strings.Join(allowed, ", "))
}

func parseTimestamp(name, v string) (time.Time, *apiError) {
	t, err := time.Parse(timestampLayout, v)
	if err != nil {
		return time.Time{}, errInvalid(name, "%q is not a UTC time yyyy-MM-ddTHH:mm:ssZ", truncate(v))
	}
	return t, nil
}

// truncate keeps hostile input short in error messages.
func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

const timestampLayout = "2006-01-02T15:04:05Z"

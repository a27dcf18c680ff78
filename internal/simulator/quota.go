package simulator

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Per-action API quotas. Alibaba Cloud limits each OpenAPI action per account and region in
// calls per time window ("Request Rate: 5/1(s)"), counts each action independently, and answers a
// call beyond the quota with Throttling.Api ("Request was denied due to api flow control.")
// before it runs; README.md cites the sources. The simulator keeps one window of one second per
// action on its own clock: the first QPS[action] calls of each second are served, the rest are
// throttled and do not count against the quota. Every answer of an action under a quota carries
// the state of its window in the x-ratelimit-user-api header, in the form Alibaba's SDKs parse
// (README.md, "API quotas").

// quotaAnyAction is the QPS key that applies to every action without its own entry.
const quotaAnyAction = "*"

// quotaWindow counts the calls served in one second of one action.
type quotaWindow struct {
	second int64
	served int
}

func validateQPS(qps map[string]int) error {
	for action, limit := range qps {
		if action != quotaAnyAction {
			if _, ok := actions[action]; !ok {
				return fmt.Errorf("qps: unknown action %q (known actions or %q for every action)", truncate(action), quotaAnyAction)
			}
		}
		if limit < 0 {
			return fmt.Errorf("qps: %s must not be negative, got %d", action, limit)
		}
	}
	return nil
}

// rateLimitHeader is the response header that states the caller's window of one action.
const rateLimitHeader = "X-Ratelimit-User-Api"

// overQuota reports whether a call of action at now exceeds its quota, and counts it in its
// window when it does not. header is the rateLimitHeader value of the answer ("" when the action
// has no quota): the quota, the calls left in the window and the milliseconds until it ends.
// Callers hold s.mu.
func (s *Simulator) overQuota(action string, now time.Time) (over bool, header string) {
	limit, ok := s.faults.QPS[action]
	if !ok {
		limit = s.faults.QPS[quotaAnyAction]
	}
	if limit <= 0 {
		return false, ""
	}
	if s.quotaWindows == nil {
		s.quotaWindows = map[string]*quotaWindow{}
	}
	w := s.quotaWindows[action]
	if w == nil {
		w = &quotaWindow{}
		s.quotaWindows[action] = w
	}
	if sec := now.Unix(); w.second != sec {
		w.second, w.served = sec, 0
	}
	over = w.served >= limit
	if !over {
		w.served++
	}
	timeLeft := time.Unix(w.second+1, 0).Sub(now).Milliseconds()
	return over, fmt.Sprintf("Limit:%d,Remain:%d,TimeLeft:%d", limit, limit-w.served, timeLeft)
}

// ParseQPS reads the -qps flag: "50" (every action) or "DescribeDBInstanceAttribute=50,..."
// ("*=N" for every other action).
func ParseQPS(flag string) (map[string]int, error) {
	qps := map[string]int{}
	for _, part := range strings.Split(flag, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		action, value, found := strings.Cut(part, "=")
		if !found {
			action, value = quotaAnyAction, part
		}
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("qps %q: want N or ACTION=N[,ACTION=N...]", part)
		}
		qps[strings.TrimSpace(action)] = n
	}
	if err := validateQPS(qps); err != nil {
		return nil, err
	}
	return qps, nil
}

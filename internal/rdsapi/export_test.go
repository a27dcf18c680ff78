package rdsapi

import "time"

// SetRetryWait shortens the backoff for the external (rdsapi_test) tests.
func SetRetryWait(c *Client, lo, hi time.Duration) { c.retryWaitMin, c.retryWaitMax = lo, hi }

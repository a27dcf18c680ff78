// Package sweep holds the test sweepers (sweep_test.go): run
// `go test ./internal/sweep -v -sweep=<region>` to release what real-cloud acceptance tests named
// tf-rds-acc-* left behind. The package has no code outside its tests.
package sweep

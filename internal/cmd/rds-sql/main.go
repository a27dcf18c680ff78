// Command rds-sql runs SQL statements against a MySQL endpoint, such as the one rds-simulator serves behind each
// simulated instance, and prints each result as tab-separated rows under a header. It needs no mysql client
// installed, which is why `make demo` uses it. The password is read from the environment (RDS_SQL_PASSWORD by
// default), never from the command line, where other users of the machine could see it.
//
//	RDS_SQL_PASSWORD=... rds-sql -addr 127.0.0.1:PORT -user app -database appdb 'SELECT @@innodb_doublewrite'
//
// With -simulator URL, -addr is a connection string and port the simulator's API handed out (DescribeDBInstanceNetInfo:
// the internal or the public endpoint), resolved through the simulator's name service: a changed or released one
// is refused.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/vitess/go/mysql"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rds-sql:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("rds-sql", flag.ContinueOnError)
	addr := fs.String("addr", "", "host:port of the MySQL endpoint (the instance's connection_string and port)")
	user := fs.String("user", "", "account name")
	passwordEnv := fs.String("password-env", "RDS_SQL_PASSWORD", "environment variable holding the account's password")
	database := fs.String("database", "", "default database (optional)")
	timeout := fs.Duration("timeout", 10*time.Second, "connect timeout")
	simulatorURL := fs.String("simulator", "", "URL of rds-simulator whose name service resolves -addr (a connection string and port it handed out)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *user == "" || fs.NArg() == 0 {
		return errors.New("usage: rds-sql -addr HOST:PORT -user NAME [-database DB] STATEMENT [STATEMENT]")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if *simulatorURL != "" {
		resolved, err := resolve(ctx, *simulatorURL, *addr)
		if err != nil {
			return err
		}
		*addr = resolved
	}
	host, portText, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", *addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return fmt.Errorf("-addr %q: the port is not a number", *addr)
	}
	conn, err := mysql.Connect(ctx, &mysql.ConnParams{Host: host, Port: port, Uname: *user, Pass: getenv(*passwordEnv), DbName: *database})
	if err != nil {
		return fmt.Errorf("connecting to %s as %s: %w", *addr, *user, err)
	}
	defer conn.Close()
	for _, statement := range fs.Args() {
		result, err := conn.ExecuteFetch(statement, 10000, true)
		if err != nil {
			return fmt.Errorf("%s: %w", statement, err)
		}
		if len(result.Fields) == 0 {
			fmt.Fprintf(stdout, "%s: %d rows affected\n", statement, result.RowsAffected)
			continue
		}
		names := make([]string, len(result.Fields))
		for i, field := range result.Fields {
			names[i] = field.Name
		}
		fmt.Fprintln(stdout, strings.Join(names, "\t"))
		for _, row := range result.Rows {
			cells := make([]string, len(row))
			for i, value := range row {
				cells[i] = value.ToString()
			}
			fmt.Fprintln(stdout, strings.Join(cells, "\t"))
		}
	}
	return nil
}

// resolve asks the simulator which loopback address serves a connection string and port it handed out.
func resolve(ctx context.Context, simulatorURL, address string) (string, error) {
	u := strings.TrimSuffix(simulatorURL, "/") + "/_simulator/resolve?address=" + url.QueryEscape(address)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", fmt.Errorf("-simulator %q: %w", simulatorURL, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("resolving %s: %w", address, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var body struct {
		Address string `json:"address"`
		Error   string `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&body); err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("resolving %s: HTTP %d %s (%v)", address, resp.StatusCode, body.Error, err)
	}
	return body.Address, nil
}

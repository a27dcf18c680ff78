// Command rds-sql runs SQL statements against a MySQL endpoint, such as the one rds-simulator serves behind each
// simulated instance, and prints each result as tab-separated rows under a header. It needs no mysql client
// installed, which is why `make demo` uses it. The password is read from the environment (RDS_SQL_PASSWORD by
// default), never from the command line, where other users of the machine could see it.
//
//	RDS_SQL_PASSWORD=... rds-sql -addr 127.0.0.1:PORT -user app -database appdb 'SELECT @@innodb_doublewrite'
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *user == "" || fs.NArg() == 0 {
		return errors.New("usage: rds-sql -addr HOST:PORT -user NAME [-database DB] STATEMENT [STATEMENT]")
	}
	host, portText, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", *addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return fmt.Errorf("-addr %q: the port is not a number", *addr)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
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

package mysqlendpoint

import (
	"context"
	"errors"
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// MySQL's error numbers for a refused privilege check. go-mysql-server reports every refusal as
// 1105 (unknown error); clients and tests that check the number expect MySQL's.
const (
	erDBAccessDenied    = mysql.ERDBAccessDenied // 1044: no privilege on the database
	erTableAccessDenied = 1142                   // ER_TABLEACCESS_DENIED_ERROR: "<command> command denied to user"
)

// mysqlErrors wraps the engine's handler so that privilege refusals carry MySQL's error numbers.
type mysqlErrors struct{ mysql.Handler }

func withMySQLErrorNumbers(h mysql.Handler) (mysql.Handler, error) { return mysqlErrors{h}, nil }

// mysqlNumbered gives a refusal go-mysql-server numbered 1105 the number MySQL uses; every other
// error passes unchanged.
func mysqlNumbered(err error) error {
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != mysql.ERUnknownError {
		return err
	}
	msg := se.Message
	switch {
	case strings.Contains(msg, "Access denied for user") && strings.Contains(msg, "to database"):
		return mysql.NewSQLError(erDBAccessDenied, mysql.SSClientError, "%s", msg)
	case strings.Contains(msg, "Access denied for user") && strings.Contains(msg, "to table"),
		strings.HasPrefix(msg, "command denied to user"):
		return mysql.NewSQLError(erTableAccessDenied, mysql.SSClientError, "%s", msg)
	}
	return err
}

func (h mysqlErrors) ComInitDB(c *mysql.Conn, schemaName string) error {
	return mysqlNumbered(h.Handler.ComInitDB(c, schemaName))
}

func (h mysqlErrors) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	return mysqlNumbered(h.Handler.ComQuery(ctx, c, query, callback))
}

func (h mysqlErrors) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	rest, err := h.Handler.ComMultiQuery(ctx, c, query, callback)
	return rest, mysqlNumbered(err)
}

func (h mysqlErrors) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) ([]*querypb.Field, error) {
	fields, err := h.Handler.ComPrepare(ctx, c, query, prepare)
	return fields, mysqlNumbered(err)
}

func (h mysqlErrors) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	return mysqlNumbered(h.Handler.ComStmtExecute(ctx, c, prepare, callback))
}

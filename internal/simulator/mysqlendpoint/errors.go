package mysqlendpoint

import (
	"context"
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
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

// readOnlyRefusal is MySQL's ER_OPTION_PREVENTS_STATEMENT text for a write on a read-only server.
const readOnlyRefusal = "The MySQL server is running with the --read-only option so it cannot execute this statement"

// mysqlErrors wraps the engine's handler so that refusals carry MySQL's error numbers, and so that the
// endpoint's store notices what each statement changed (store.go).
type mysqlErrors struct {
	mysql.Handler
	owner *Endpoint
}

func (e *Endpoint) wrapHandler(h mysql.Handler) mysql.Handler {
	return mysqlErrors{Handler: h, owner: e}
}

// mysqlNumbered gives a refusal go-mysql-server numbered 1105 the number MySQL uses; every other
// error passes unchanged.
func mysqlNumbered(err error) error {
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != mysql.ERUnknownError {
		return err
	}
	msg := se.Message
	switch {
	case sql.ErrReadOnly.Is(err) || strings.Contains(msg, sql.ErrReadOnly.New().Error()):
		return mysql.NewSQLError(mysql.EROptionPreventsStatement, mysql.SSUnknownSQLState, "%s", readOnlyRefusal)
	case strings.Contains(msg, "Access denied for user") && strings.Contains(msg, "to database"):
		return mysql.NewSQLError(erDBAccessDenied, mysql.SSClientError, "%s", msg)
	case strings.Contains(msg, "Access denied for user") && strings.Contains(msg, "to table"),
		strings.HasPrefix(msg, "command denied to user"):
		return mysql.NewSQLError(erTableAccessDenied, mysql.SSClientError, "%s", msg)
	}
	return err
}

// NewConnection numbers connections across the endpoint's boots: each boot's listener counts from 1, and the
// engine, which outlives boots, would otherwise take a new connection for one a restart dropped. A proxy's
// connection keeps its number (proxy.go), which it shares with every instance behind the proxy.
func (h mysqlErrors) NewConnection(c *mysql.Conn) {
	if c.ConnectionID < proxyConnectionBase {
		c.ConnectionID = h.owner.connectionIDs.Add(1)
	}
	h.Handler.NewConnection(c)
}

func (h mysqlErrors) ComInitDB(c *mysql.Conn, schemaName string) error {
	return mysqlNumbered(h.Handler.ComInitDB(c, schemaName))
}

// ComQuery, ComMultiQuery and ComStmtExecute run statements: after each, the store takes in what it changed.

func (h mysqlErrors) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	err := h.Handler.ComQuery(ctx, c, query, callback)
	h.owner.noticeSQLChanges()
	return mysqlNumbered(err)
}

func (h mysqlErrors) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	rest, err := h.Handler.ComMultiQuery(ctx, c, query, callback)
	h.owner.noticeSQLChanges()
	return rest, mysqlNumbered(err)
}

func (h mysqlErrors) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) ([]*querypb.Field, error) {
	fields, err := h.Handler.ComPrepare(ctx, c, query, prepare)
	return fields, mysqlNumbered(err)
}

func (h mysqlErrors) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	err := h.Handler.ComStmtExecute(ctx, c, prepare, callback)
	h.owner.noticeSQLChanges()
	return mysqlNumbered(err)
}

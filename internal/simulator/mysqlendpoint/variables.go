package mysqlendpoint

import (
	"context"
	"io"
	"sync"

	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	vtlog "github.com/dolthub/vitess/go/vt/log"
	"github.com/sirupsen/logrus"
)

const doublewriteVariable = "innodb_doublewrite"

var registerOnce sync.Once

// quietEngineLogs registers innodb_doublewrite (go-mysql-server does not know it) and silences the engine's
// logs (every connection a restart drops is an error there), once per process. go-mysql-server keeps system variable definitions in a process-wide
// registry; each endpoint sets its own values per session (sessionBuilder).
func quietEngineLogs() {
	registerOnce.Do(func() {
		// MySQL 8.0.30+ makes innodb_doublewrite an enum; ON and OFF are the values RDS uses.
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
			Name:    doublewriteVariable,
			Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Global),
			Dynamic: false,
			Type:    types.NewSystemEnumType(doublewriteVariable, "ON", "OFF", "DETECT_AND_RECOVER", "DETECT_ONLY"),
			Default: "ON",
		}})
		// The engine logs every dropped connection as an error; restarts drop connections on purpose.
		logrus.SetOutput(io.Discard)
		vtlog.Info = func(...any) {}
		vtlog.Infof = func(string, ...any) {}
	})
}

// sessionBuilder gives each session of a boot that boot's @@version and @@innodb_doublewrite, @@read_only = 1
// on a read-only instance, and @@hostname when the endpoint has one. @@global.version, @@global.innodb_doublewrite and @@global.read_only read the
// process-wide registry instead (a simplification).
func sessionBuilder(provider *memory.DbProvider, settings Settings, readOnly bool, hostname string) server.SessionBuilder {
	base := memory.NewSessionBuilder(provider)
	doublewrite := "OFF"
	if settings.Doublewrite {
		doublewrite = "ON"
	}
	return func(ctx context.Context, conn *mysql.Conn, addr string) (sql.Session, error) {
		session, err := base(ctx, conn, addr)
		if err != nil {
			return nil, err
		}
		sctx := sql.NewContext(ctx, sql.WithSession(session))
		if settings.Version != "" {
			if err := session.InitSessionVariable(sctx, "version", settings.Version); err != nil {
				return nil, err
			}
		}
		if err := session.InitSessionVariable(sctx, doublewriteVariable, doublewrite); err != nil {
			return nil, err
		}
		if readOnly {
			if err := session.InitSessionVariable(sctx, "read_only", int8(1)); err != nil {
				return nil, err
			}
		}
		if hostname != "" {
			if err := session.InitSessionVariable(sctx, "hostname", hostname); err != nil {
				return nil, err
			}
		}
		return session, nil
	}
}

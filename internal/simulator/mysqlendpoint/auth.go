package mysqlendpoint

import (
	"crypto/sha1"
	"crypto/x509"
	"net"

	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
)

// nativePasswordAuth offers mysql_native_password only, the plugin of accounts created through the RDS API. Unlike
// go-mysql-server's own auth server, it answers an unknown account with "Access denied" (1045), as MySQL does,
// instead of a handshake error.
type nativePasswordAuth struct {
	method mysql.AuthMethod
}

func newNativePasswordAuth(db *mysql_db.MySQLDb) *nativePasswordAuth {
	return &nativePasswordAuth{method: mysql.NewMysqlNativeAuthMethod(nativeHashStorage{db: db}, anyUser{})}
}

func (a *nativePasswordAuth) AuthMethods() []mysql.AuthMethod { return []mysql.AuthMethod{a.method} }

func (a *nativePasswordAuth) DefaultAuthMethodDescription() mysql.AuthMethodDescription {
	return mysql.MysqlNativePassword
}

// anyUser lets every user name reach the password check, which decides.
type anyUser struct{}

func (anyUser) HandleUser(string, net.Addr) bool { return true }

type nativeHashStorage struct {
	db *mysql_db.MySQLDb
}

func (s nativeHashStorage) UserEntryWithHash(_ []*x509.Certificate, salt []byte, user string, authResponse []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	// A scramble is empty (no password) or one SHA-1 long; anything else is refused before it reaches the check.
	if len(authResponse) != 0 && len(authResponse) != sha1.Size {
		return nil, mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError, "Access denied for user '%v'", user)
	}
	return s.db.ValidateHash(salt, user, authResponse, remoteAddr)
}

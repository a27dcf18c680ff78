// Package mysqlendpoint serves one simulated RDS instance as a real MySQL-protocol endpoint on loopback, backed by
// go-mysql-server's in-memory engine: accounts log in with mysql_native_password, privileges follow Alibaba's
// account modes, the instance whitelist is enforced at connect, and a restart drops connections and refuses new
// ones while it lasts, keeping the data. Only the simulator links this package; the provider binary never does.
package mysqlendpoint

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
)

// Settings are what the engine reads at boot: they change only across a restart, as on the real service.
type Settings struct {
	// Version is @@version, VERSION() and the handshake's server version, e.g. "8.0.36".
	Version string
	// Doublewrite is @@innodb_doublewrite: ON when true. 16K atomic write turns it OFF.
	Doublewrite bool
	// SSL: the server offers TLS (tls.go).
	SSL bool
}

// Options configure a new endpoint.
type Options struct {
	// Address to listen on; "127.0.0.1:0" (a free loopback port) when empty.
	Address string
	// Settings of the first boot.
	Settings Settings
	// AllowedClients is the whitelist (IP addresses and CIDR blocks); a client outside it is refused at connect.
	AllowedClients []string
	// BeforeAccept, when set, runs before each new client connection is admitted, without the endpoint's lock, so
	// that it may change the endpoint (end a restart that is due, for one).
	BeforeAccept func()
	// ReadOnlyOf, when set, makes this a read-only instance's endpoint: it serves that (primary) endpoint's
	// databases and rows, reports @@read_only = 1 and refuses every write with MySQL's error 1290.
	ReadOnlyOf *Endpoint
	// OnSQLChange, when set, receives what each SQL statement changed in accounts, grants and databases
	// (store.go). It runs without the endpoint's lock, after the statement and before its answer reaches the client.
	OnSQLChange func(Change)
	// Hostname is @@hostname (the instance id), which tells a client behind a proxy who answered.
	Hostname string
}

// Endpoint is one instance's MySQL server. Its methods are safe for concurrent use.
type Endpoint struct {
	listener     net.Listener
	addr         *net.TCPAddr
	provider     *memory.DbProvider
	engine       *sqle.Engine
	beforeAccept func()
	readOnly     bool
	hostname     string
	// connectionIDs numbers client connections across boots (errors.go).
	connectionIDs atomic.Uint32

	mu        sync.Mutex
	settings  Settings
	whitelist whitelist
	accounts  map[string]*account
	// onSQLChange is Options.OnSQLChange, or what ReportSQLChanges set.
	onSQLChange func(Change)
	// databases are the databases the store knows of: created through CreateDatabase or noticed after SQL.
	databases  map[string]bool
	boot       *boot // nil while restarting or closed
	restarting bool
	closed     bool
	conns      map[*trackedConn]struct{}
	acceptDone chan struct{}
}

// boot is one run of the server process between restarts.
type boot struct {
	server *server.Server
	inbox  *handoffListener
	// handler runs this boot's statements; a proxy in front of the endpoint calls it (proxy.go).
	handler mysql.Handler
}

// Start listens and boots the server.
func Start(opts Options) (*Endpoint, error) {
	quietEngineLogs()
	list, err := parseWhitelist(opts.AllowedClients)
	if err != nil {
		return nil, err
	}
	address := opts.Address
	if address == "" {
		address = "127.0.0.1:0"
	}
	listener, err := net.Listen("tcp", address)
	if err != nil {
		return nil, fmt.Errorf("mysql endpoint: %w", err)
	}
	tcpAddr, ok := listener.Addr().(*net.TCPAddr)
	if !ok {
		_ = listener.Close()
		return nil, fmt.Errorf("mysql endpoint: %s is not a TCP address", listener.Addr())
	}
	provider := memory.NewDBProvider()
	if opts.ReadOnlyOf != nil {
		// A read-only instance replicates its primary: one set of databases, so rows written there are read here.
		provider = opts.ReadOnlyOf.provider
	}
	engine := sqle.NewDefault(provider)
	engine.ReadOnly.Store(opts.ReadOnlyOf != nil)
	// With the mysql database enabled and no users, nobody can log in until an account exists, as on a new instance.
	engine.Analyzer.Catalog.MySQLDb.SetEnabled(true)
	// CREATE USER, GRANT, REVOKE, ALTER USER and DROP USER persist the grant tables after each change; without a
	// persister the engine panics and the client sees its connection dropped (errno 2013). The in-memory tables
	// are this endpoint's store, so there is nothing further to write.
	engine.Analyzer.Catalog.MySQLDb.SetPersister(&mysql_db.NoopPersister{})

	e := &Endpoint{
		listener:     listener,
		addr:         tcpAddr,
		provider:     provider,
		engine:       engine,
		beforeAccept: opts.BeforeAccept,
		readOnly:     opts.ReadOnlyOf != nil,
		hostname:     opts.Hostname,
		onSQLChange:  opts.OnSQLChange,
		databases:    map[string]bool{},
		settings:     opts.Settings,
		whitelist:    list,
		accounts:     map[string]*account{},
		conns:        map[*trackedConn]struct{}{},
		acceptDone:   make(chan struct{}),
	}
	b, err := e.newBoot(opts.Settings)
	if err != nil {
		_ = listener.Close()
		return nil, err
	}
	e.boot = b
	go e.acceptLoop()
	return e, nil
}

// Addr is the host:port clients connect to.
func (e *Endpoint) Addr() string { return e.listener.Addr().String() }

// Host is the address clients connect to, without the port.
func (e *Endpoint) Host() string { return e.addr.IP.String() }

// Port is the TCP port clients connect to.
func (e *Endpoint) Port() int { return e.addr.Port }

// Settings are those of the running boot (or of the last one, during a restart).
func (e *Endpoint) Settings() Settings {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.settings
}

// Close stops listening and drops every connection. The data is gone with the endpoint.
func (e *Endpoint) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	b := e.boot
	e.boot = nil
	conns := e.takeConnsLocked()
	e.mu.Unlock()

	err := e.listener.Close()
	<-e.acceptDone
	if b != nil {
		_ = b.server.Close()
	}
	closeAll(conns)
	if cerr := e.engine.Close(); err == nil {
		err = cerr
	}
	// Shutting the engine's background threads down reports their context's cancellation.
	if errors.Is(err, net.ErrClosed) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// BeginRestart stops the server process: open connections are dropped, and new ones are refused until
// EndRestart. Data, accounts and grants are kept.
func (e *Endpoint) BeginRestart() {
	e.mu.Lock()
	if e.closed || e.restarting {
		e.mu.Unlock()
		return
	}
	e.restarting = true
	b := e.boot
	e.boot = nil
	conns := e.takeConnsLocked()
	e.mu.Unlock()

	_ = b.server.Close()
	closeAll(conns)
}

// EndRestart boots the server again with the given settings and accepts connections.
func (e *Endpoint) EndRestart(settings Settings) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return errors.New("mysql endpoint: closed")
	}
	if !e.restarting {
		return errors.New("mysql endpoint: EndRestart without BeginRestart")
	}
	b, err := e.newBoot(settings)
	if err != nil {
		return err
	}
	e.boot = b
	e.settings = settings
	e.restarting = false
	return nil
}

// Restarting reports whether the endpoint is between BeginRestart and EndRestart.
func (e *Endpoint) Restarting() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.restarting
}

// SetAllowedClients replaces the whitelist. It applies to new connections; open ones stay, as on the service.
func (e *Endpoint) SetAllowedClients(entries []string) error {
	list, err := parseWhitelist(entries)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.whitelist = list
	return nil
}

// OpenConnections counts the client connections the endpoint holds.
func (e *Endpoint) OpenConnections() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.conns)
}

// CreateDatabase creates an empty database with the character set's default collation.
func (e *Endpoint) CreateDatabase(name, characterSet string) error {
	// The store's lock is held throughout, so that the statement check (store.go) never takes this for SQL's work.
	e.mu.Lock()
	defer e.mu.Unlock()
	ctx := e.adminContext()
	if _, err := e.provider.Database(ctx, name); err == nil {
		return fmt.Errorf("database %q exists", name)
	}
	collation := sql.Collation_Default
	if characterSet != "" {
		cs, err := sql.ParseCharacterSet(characterSet)
		if err != nil {
			return fmt.Errorf("database %q: %w", name, err)
		}
		collation = cs.DefaultCollation()
	}
	if err := e.provider.CreateDatabase(ctx, name); err != nil {
		return err
	}
	e.databases[strings.ToLower(name)] = true
	db, err := e.provider.Database(ctx, name)
	if err != nil {
		return err
	}
	if collated, ok := db.(sql.CollatedDatabase); ok {
		return collated.SetCollation(ctx, collation)
	}
	return nil
}

// DropDatabase deletes a database with its tables and every account's privilege on it.
func (e *Endpoint) DropDatabase(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.provider.DropDatabase(e.adminContext(), name); err != nil {
		return err
	}
	delete(e.databases, strings.ToLower(name))
	for _, a := range e.accounts {
		if _, ok := a.grants[strings.ToLower(name)]; ok {
			delete(a.grants, strings.ToLower(name))
			e.putUserLocked(a)
		}
	}
	return nil
}

// Databases lists the databases, sorted.
func (e *Endpoint) Databases() []string {
	var names []string
	for _, db := range e.provider.AllDatabases(e.adminContext()) {
		if name := db.Name(); name != "mysql" && name != "information_schema" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// CreateAccount adds an account that logs in from any whitelisted host with the password whose
// mysql_native_password hash is given (see NativePasswordHash). A privileged account holds the privileged-account
// privileges on every database; a standard one holds only what Grant gives it.
func (e *Endpoint) CreateAccount(name, passwordHash string, privileged bool) error {
	hash, err := normalizeNativeHash(passwordHash)
	if err != nil {
		return fmt.Errorf("account %q: %w", name, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.accounts[name]; ok {
		return fmt.Errorf("account %q exists", name)
	}
	a := &account{name: name, hash: hash, privileged: privileged, grants: map[string][]sql.PrivilegeType{}}
	e.accounts[name] = a
	e.putUserLocked(a)
	return nil
}

// SetPasswordHash changes an account's password; open sessions stay logged in, as in MySQL.
func (e *Endpoint) SetPasswordHash(name, passwordHash string) error {
	hash, err := normalizeNativeHash(passwordHash)
	if err != nil {
		return fmt.Errorf("account %q: %w", name, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[name]
	if !ok {
		return fmt.Errorf("account %q does not exist", name)
	}
	a.hash = hash
	e.putUserLocked(a)
	return nil
}

// DropAccount deletes an account; new logins with it fail.
func (e *Endpoint) DropAccount(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.accounts[name]; !ok {
		return fmt.Errorf("account %q does not exist", name)
	}
	delete(e.accounts, name)
	ed := e.engine.Analyzer.Catalog.MySQLDb.Editor()
	defer ed.Close()
	removeUserRows(ed, name)
	return nil
}

// Grant gives an account one privilege on a database, replacing the one it had there.
func (e *Endpoint) Grant(accountName, database string, privilege Privilege) error {
	if _, err := ParsePrivilege(string(privilege)); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[accountName]
	if !ok {
		return fmt.Errorf("account %q does not exist", accountName)
	}
	a.grants[strings.ToLower(database)] = grantOf(privilege)
	e.putUserLocked(a)
	return nil
}

// Revoke removes an account's privilege on a database.
func (e *Endpoint) Revoke(accountName, database string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[accountName]
	if !ok {
		return fmt.Errorf("account %q does not exist", accountName)
	}
	delete(a.grants, strings.ToLower(database))
	e.putUserLocked(a)
	return nil
}

func (e *Endpoint) putUserLocked(a *account) {
	ed := e.engine.Analyzer.Catalog.MySQLDb.Editor()
	defer ed.Close()
	// PutUser replaces only an identical row; remove the old ones so the account stays unique.
	removeUserRows(ed, a.name)
	ed.PutUser(a.engineUser())
}

// removeUserRows removes every mysql.user row of a name: an RDS account is one name, whatever host SQL gave it.
func removeUserRows(ed *mysql_db.Editor, name string) {
	for _, u := range ed.GetUsersByUsername(name) {
		ed.RemoveUser(mysql_db.UserPrimaryKey{Host: u.Host, User: u.User})
	}
}

func (e *Endpoint) adminContext() *sql.Context {
	session := memory.NewSession(sql.NewBaseSession(), e.provider)
	return sql.NewContext(context.Background(), sql.WithSession(session))
}

func (e *Endpoint) newBoot(settings Settings) (*boot, error) {
	inbox := newHandoffListener(e.listener.Addr())
	auth := newNativePasswordAuth(e.engine.Analyzer.Catalog.MySQLDb)
	tlsConfig, err := tlsConfigFor(settings)
	if err != nil {
		return nil, err
	}
	cfg := server.Config{
		Protocol: "tcp", Address: e.Addr(), Listener: inbox, Version: settings.Version, TLSConfig: tlsConfig,
		ProtocolListenerFactory: func(cfg server.Config, listenerCfg mysql.ListenerConfig, sel server.ServerEventListener) (server.ProtocolListener, error) {
			listenerCfg.AuthServer = auth
			return server.MySQLProtocolListenerFactory(cfg, listenerCfg, sel)
		},
	}
	var handler mysql.Handler
	wrap := func(h mysql.Handler) (mysql.Handler, error) {
		handler = e.wrapHandler(h)
		return handler, nil
	}
	srv, err := server.NewServerWithHandler(cfg, e.engine, sql.NewContext, sessionBuilder(e.provider, settings, e.readOnly, e.hostname), nil, wrap)
	if err != nil {
		return nil, fmt.Errorf("mysql endpoint: %w", err)
	}
	go func() { _ = srv.Start() }()
	return &boot{server: srv, inbox: inbox, handler: handler}, nil
}

func (e *Endpoint) takeConnsLocked() []*trackedConn {
	conns := make([]*trackedConn, 0, len(e.conns))
	for c := range e.conns {
		conns = append(conns, c)
	}
	return conns
}

func closeAll(conns []*trackedConn) {
	for _, c := range conns {
		_ = c.Close()
	}
}

package mysqlendpoint

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// A database proxy endpoint: its own MySQL listener, logging clients in with the primary's accounts, that runs
// each statement on one instance behind it. Writes, statements inside a transaction, prepared statements and
// multi-statements go to the primary; plain reads (SELECT, SHOW, DESCRIBE, EXPLAIN) go to the read targets by
// smooth weighted round-robin, so that the share of each is exact and repeatable. Each instance runs the statement
// in its own session for the client's connection, so @@hostname tells which one answered.

// proxyConnectionBase numbers a proxy's client connections above any instance's own (errors.go).
const proxyConnectionBase = 1 << 31

// ProxyRead is an instance plain reads may go to, and its weight.
type ProxyRead struct {
	Endpoint *Endpoint
	Weight   int64
}

// ProxyConfig is how a proxy routes.
type ProxyConfig struct {
	Primary *Endpoint
	// Reads are the read targets; the caller leaves out instances whose delay is above the threshold.
	Reads []ProxyRead
	// ReadOnly: a ReadOnly endpoint sends every statement to the read targets.
	ReadOnly bool
	// Splitting is read/write splitting; off, every statement goes to the primary.
	Splitting bool
	// TransactionSplit sends the reads of a transaction before its first write to the read targets.
	TransactionSplit bool
	// AllowedClients is the whitelist (the primary's).
	AllowedClients []string
}

// Proxy is one proxy endpoint. Its methods are safe for concurrent use.
type Proxy struct {
	listener *mysql.Listener
	accepts  *proxyListener
	addr     *net.TCPAddr
	ids      atomic.Uint32

	mu    sync.Mutex
	cfg   ProxyConfig
	turns []int64 // smooth weighted round-robin: the current weight of each read target
	conns map[uint32]*proxyConn
}

// proxyConn is one client connection's routing state; a client's commands arrive one at a time.
type proxyConn struct {
	schema        string
	inTx, txWrote bool
	opened        map[*Endpoint]*proxySession
}

// proxySession is the client's session on one instance (a boot's handler: a restart makes a new one).
type proxySession struct {
	handler mysql.Handler
	schema  string
}

// StartProxy listens on a free loopback port and serves the proxy.
func StartProxy(cfg ProxyConfig) (*Proxy, error) {
	if cfg.Primary == nil {
		return nil, fmt.Errorf("mysql proxy: no primary")
	}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mysql proxy: %w", err)
	}
	addr, ok := raw.Addr().(*net.TCPAddr)
	if !ok {
		_ = raw.Close()
		return nil, fmt.Errorf("mysql proxy: %v is not a TCP address", raw.Addr())
	}
	p := &Proxy{addr: addr, conns: map[uint32]*proxyConn{}}
	p.accepts = &proxyListener{Listener: raw, proxy: p, open: map[net.Conn]struct{}{}}
	if err := p.Apply(cfg); err != nil {
		_ = raw.Close()
		return nil, err
	}
	listener, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{Listener: p.accepts,
		AuthServer: newNativePasswordAuth(cfg.Primary.engine.Analyzer.Catalog.MySQLDb), Handler: p})
	if err != nil {
		_ = raw.Close()
		return nil, fmt.Errorf("mysql proxy: %w", err)
	}
	listener.ServerVersion = cfg.Primary.Settings().Version
	p.listener = listener
	go listener.Accept()
	return p, nil
}

// Host is the address clients connect to, without the port.
func (p *Proxy) Host() string { return p.addr.IP.String() }

// Port is the TCP port clients connect to.
func (p *Proxy) Port() int { return p.addr.Port }

// Apply changes the routing; the round-robin starts afresh, so a test counts from a known state.
func (p *Proxy) Apply(cfg ProxyConfig) error {
	list, err := parseWhitelist(cfg.AllowedClients)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg = cfg
	p.turns = make([]int64, len(cfg.Reads))
	p.accepts.setWhitelist(list)
	return nil
}

// Close stops listening and drops every client connection.
func (p *Proxy) Close() error {
	if p.listener != nil {
		p.listener.Close()
	}
	p.accepts.closeAll()
	return nil
}

// nextRead picks the read target by smooth weighted round-robin (nil: none has a weight).
func (p *Proxy) nextRead() *Endpoint {
	p.mu.Lock()
	defer p.mu.Unlock()
	best, total := -1, int64(0)
	for i, r := range p.cfg.Reads {
		if r.Weight <= 0 {
			continue
		}
		p.turns[i] += r.Weight
		total += r.Weight
		if best < 0 || p.turns[i] > p.turns[best] {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	p.turns[best] -= total
	return p.cfg.Reads[best].Endpoint
}

func (p *Proxy) config() ProxyConfig {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cfg
}

// statementKind classifies a statement by its first word.
func statementKind(query string) string {
	fields := strings.Fields(strings.ToLower(strings.TrimLeft(query, " \t\r\n(")))
	if len(fields) == 0 {
		return "write"
	}
	switch first := fields[0]; first {
	case "select":
		if strings.Contains(strings.ToLower(query), " for update") || strings.Contains(strings.ToLower(query), " lock in share mode") {
			return "write"
		}
		return "read"
	case "show", "describe", "desc", "explain":
		return "read"
	case "begin":
		return "begin"
	case "start":
		if len(fields) > 1 && strings.HasPrefix(fields[1], "transaction") {
			return "begin"
		}
	case "commit", "rollback":
		return "end"
	case "use":
		return "use"
	}
	return "write"
}

// target is the instance a statement of the kind goes to (nil: none can take it). USE goes to the endpoint's
// home: the primary, or on a ReadOnly endpoint its first read target, without a turn of the round-robin.
func (p *Proxy) target(pc *proxyConn, kind string) *Endpoint {
	cfg := p.config()
	switch {
	case kind == "use" && cfg.ReadOnly:
		for _, r := range cfg.Reads {
			if r.Weight > 0 {
				return r.Endpoint
			}
		}
		return nil
	case kind == "use":
		return cfg.Primary
	case cfg.ReadOnly:
		return p.nextRead()
	case !cfg.Splitting || kind != "read":
		return cfg.Primary
	case pc.inTx && (!cfg.TransactionSplit || pc.txWrote):
		return cfg.Primary
	}
	if ep := p.nextRead(); ep != nil {
		return ep
	}
	return cfg.Primary
}

// session opens (or reopens, after a restart) the client's session on the instance, at the client's database.
func (p *Proxy) session(c *mysql.Conn, pc *proxyConn, ep *Endpoint) (mysql.Handler, error) {
	if ep == nil {
		return nil, mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "no instance behind the proxy can take this statement")
	}
	h := ep.currentHandler()
	if h == nil {
		return nil, mysql.NewSQLError(erServerShutdown, "08S01", "Server shutdown in progress: the instance is restarting")
	}
	s := pc.opened[ep]
	if s == nil || s.handler != h {
		h.NewConnection(c)
		s = &proxySession{handler: h}
		pc.opened[ep] = s
	}
	if s.schema != pc.schema {
		if err := h.ComInitDB(c, pc.schema); err != nil {
			return nil, err
		}
		s.schema = pc.schema
	}
	return h, nil
}

func (p *Proxy) conn(c *mysql.Conn) *proxyConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conns[c.ConnectionID]
}

// NewConnection implements mysql.Handler.
func (p *Proxy) NewConnection(c *mysql.Conn) {
	c.ConnectionID = proxyConnectionBase + p.ids.Add(1)
	p.mu.Lock()
	p.conns[c.ConnectionID] = &proxyConn{opened: map[*Endpoint]*proxySession{}}
	p.mu.Unlock()
}

// ConnectionClosed implements mysql.Handler: the client's session on each instance ends.
func (p *Proxy) ConnectionClosed(c *mysql.Conn) {
	p.mu.Lock()
	pc := p.conns[c.ConnectionID]
	delete(p.conns, c.ConnectionID)
	p.mu.Unlock()
	if pc == nil {
		return
	}
	for ep, s := range pc.opened {
		if ep.currentHandler() == s.handler {
			s.handler.ConnectionClosed(c)
		}
	}
}

// ConnectionAborted implements mysql.Handler.
func (p *Proxy) ConnectionAborted(*mysql.Conn, string) error { return nil }

// ComInitDB implements mysql.Handler: the database is checked where writes go, and followed everywhere.
func (p *Proxy) ComInitDB(c *mysql.Conn, schemaName string) error {
	pc := p.conn(c)
	previous := pc.schema
	pc.schema = schemaName
	if _, err := p.session(c, pc, p.target(pc, "use")); err != nil {
		pc.schema = previous
		return err
	}
	return nil
}

// ComQuery implements mysql.Handler: one statement, routed.
func (p *Proxy) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	pc := p.conn(c)
	kind := statementKind(query)
	ep := p.target(pc, kind)
	h, err := p.session(c, pc, ep)
	if err != nil {
		return err
	}
	if err := h.ComQuery(ctx, c, query, callback); err != nil {
		return err
	}
	switch kind {
	case "begin":
		pc.inTx, pc.txWrote = true, false
	case "end":
		pc.inTx = false
	case "write":
		pc.txWrote = pc.inTx
	case "use":
		if fields := strings.Fields(strings.TrimSuffix(strings.TrimSpace(query), ";")); len(fields) == 2 {
			pc.schema = strings.Trim(fields[1], "`")
			pc.opened[ep].schema = pc.schema
		}
	}
	return nil
}

// currentHandler is the running boot's handler; nil while the instance restarts.
func (e *Endpoint) currentHandler() mysql.Handler {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.boot == nil {
		return nil
	}
	return e.boot.handler
}

// primary is the client's session on the primary, for what the proxy does not split.
func (p *Proxy) primary(c *mysql.Conn) (mysql.Handler, error) {
	return p.session(c, p.conn(c), p.config().Primary)
}

// ComMultiQuery implements mysql.Handler: a client that allows multi-statements (the vitess client of rds-sql,
// go-sql-driver with multiStatements=true) sends every query this way; one statement is routed as ComQuery does,
// several run on the primary.
func (p *Proxy) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	if !strings.Contains(strings.TrimRight(strings.TrimSpace(query), "; \t\n"), ";") {
		return "", p.ComQuery(ctx, c, query, callback)
	}
	h, err := p.primary(c)
	if err != nil {
		return "", err
	}
	return h.ComMultiQuery(ctx, c, query, callback)
}

// ComPrepare implements mysql.Handler: prepared statements run on the primary.
func (p *Proxy) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) ([]*querypb.Field, error) {
	h, err := p.primary(c)
	if err != nil {
		return nil, err
	}
	return h.ComPrepare(ctx, c, query, prepare)
}

// ComStmtExecute implements mysql.Handler.
func (p *Proxy) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	h, err := p.primary(c)
	if err != nil {
		return err
	}
	return h.ComStmtExecute(ctx, c, prepare, callback)
}

// WarningCount implements mysql.Handler.
func (p *Proxy) WarningCount(*mysql.Conn) uint16 { return 0 }

// ComResetConnection implements mysql.Handler: the transaction state is forgotten.
func (p *Proxy) ComResetConnection(c *mysql.Conn) error {
	pc := p.conn(c)
	pc.inTx, pc.txWrote = false, false
	return nil
}

// ParserOptionsForConnection implements mysql.Handler.
func (p *Proxy) ParserOptionsForConnection(*mysql.Conn) (sqlparser.ParserOptions, error) {
	return sqlparser.ParserOptions{}, nil
}

// proxyListener refuses clients outside the whitelist and remembers the others, so Close drops them.
type proxyListener struct {
	net.Listener
	proxy *Proxy

	mu        sync.Mutex
	whitelist whitelist
	open      map[net.Conn]struct{}
}

func (l *proxyListener) setWhitelist(list whitelist) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.whitelist = list
}

func (l *proxyListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		allowed := l.whitelist.allows(conn.RemoteAddr())
		tracked := &proxyClientConn{Conn: conn, owner: l}
		if allowed {
			l.open[tracked] = struct{}{}
		}
		l.mu.Unlock()
		if allowed {
			return tracked, nil
		}
		host, _, _ := net.SplitHostPort(conn.RemoteAddr().String())
		refuse(conn, erHostNotPrivileged, "HY000", fmt.Sprintf("Host '%s' is not allowed to connect to this MySQL server", host))
	}
}

func (l *proxyListener) closeAll() {
	_ = l.Close()
	l.mu.Lock()
	open := l.open
	l.open = map[net.Conn]struct{}{}
	l.mu.Unlock()
	for conn := range open {
		if c, ok := conn.(*proxyClientConn); ok {
			_ = c.Conn.Close()
		}
	}
}

// proxyClientConn leaves the listener's set when closed.
type proxyClientConn struct {
	net.Conn
	owner *proxyListener
}

func (c *proxyClientConn) Close() error {
	c.owner.mu.Lock()
	delete(c.owner.open, c)
	c.owner.mu.Unlock()
	return c.Conn.Close()
}

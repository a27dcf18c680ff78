package mysqlendpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// MySQL server errors sent, before the handshake, to a client the endpoint refuses.
const (
	// erHostNotPrivileged (1130) is what MySQL answers a host it does not allow.
	erHostNotPrivileged = 1130
	// erServerShutdown (1053, SQLSTATE 08S01) is what a server going down answers.
	erServerShutdown = 1053
)

// acceptLoop owns the TCP socket for the endpoint's whole life, so a restart keeps the port: it refuses clients
// outside the whitelist and clients arriving during a restart, and hands the others to the running boot.
func (e *Endpoint) acceptLoop() {
	defer close(e.acceptDone)
	for {
		conn, err := e.listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		// Each admission runs apart: BeforeAccept may take time, or close this endpoint.
		go e.admit(conn)
	}
}

func (e *Endpoint) admit(conn net.Conn) {
	if e.beforeAccept != nil {
		e.beforeAccept()
	}
	e.mu.Lock()
	switch {
	case e.closed:
		e.mu.Unlock()
		_ = conn.Close()
		return
	case !e.whitelist.allows(conn.RemoteAddr()):
		e.mu.Unlock()
		host, _, _ := net.SplitHostPort(conn.RemoteAddr().String())
		refuse(conn, erHostNotPrivileged, "HY000", fmt.Sprintf("Host '%s' is not allowed to connect to this MySQL server", host))
		return
	case e.boot == nil:
		e.mu.Unlock()
		refuse(conn, erServerShutdown, "08S01", "Server shutdown in progress: the instance is restarting")
		return
	}
	tracked := &trackedConn{Conn: conn, owner: e}
	e.conns[tracked] = struct{}{}
	inbox := e.boot.inbox
	e.mu.Unlock()
	if !inbox.deliver(tracked) {
		_ = tracked.Close()
	}
}

// refuse writes a MySQL ERR packet in place of the handshake and closes the connection.
func refuse(conn net.Conn, code uint16, sqlState, message string) {
	payload := make([]byte, 0, 9+len(message))
	payload = append(payload, 0xff)
	payload = binary.LittleEndian.AppendUint16(payload, code)
	payload = append(payload, '#')
	payload = append(payload, sqlState...)
	payload = append(payload, message...)
	packet := make([]byte, 4, 4+len(payload))
	packet[0], packet[1], packet[2] = byte(len(payload)), byte(len(payload)>>8), byte(len(payload)>>16)
	packet = append(packet, payload...)
	_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = conn.Write(packet)
	_ = conn.Close()
}

// trackedConn is a client connection the endpoint can drop on restart or close.
type trackedConn struct {
	net.Conn
	owner *Endpoint
	once  sync.Once
}

func (c *trackedConn) Close() error {
	var err error
	c.once.Do(func() {
		c.owner.mu.Lock()
		delete(c.owner.conns, c)
		c.owner.mu.Unlock()
		err = c.Conn.Close()
	})
	return err
}

// handoffListener is the net.Listener one boot's server accepts from: the endpoint's accept loop hands it
// connections, and closing it ends that boot without closing the TCP socket.
type handoffListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newHandoffListener(addr net.Addr) *handoffListener {
	return &handoffListener{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *handoffListener) deliver(conn net.Conn) bool {
	select {
	case l.conns <- conn:
		return true
	case <-l.done:
		return false
	}
}

func (l *handoffListener) Accept() (net.Conn, error) {
	select {
	case conn := <-l.conns:
		return conn, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *handoffListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *handoffListener) Addr() net.Addr { return l.addr }

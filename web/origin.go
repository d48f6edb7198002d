package web

import (
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// DefaultHost is the host shown in absolute links when neither BaseURL nor
// Hosts is configured.
const DefaultHost = "localhost"

// origins decides the scheme and host that absolute links show (the record
// page's link box, robots.txt, the sitemaps, OpenSearch). Nothing a client
// chooses freely reaches a page: the host is one of a fixed list, and the
// scheme is the connection's own unless a trusted proxy names it. So a
// forged Host or X-Forwarded-Proto cannot change what other readers see,
// and the response cache, keyed on the origin, cannot be split without
// bound.
type origins struct {
	base    string               // Config.BaseURL, without a trailing slash
	hosts   map[string]bool      // lower-cased Config.Hosts
	first   string               // the host used when the request's is not listed
	roots   map[string][2]string // host -> its http and https roots, made once
	trusted []*net.IPNet         // Config.TrustedProxies
}

func newOrigins(cfg Config) *origins {
	o := &origins{base: cfg.BaseURL, hosts: map[string]bool{}, first: DefaultHost, roots: map[string][2]string{},
		trusted: cfg.TrustedProxies}
	for i, h := range cfg.Hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if i == 0 {
			o.first = h
		}
		o.hosts[h] = true
	}
	for _, h := range append(slices.Collect(maps.Keys(o.hosts)), o.first) {
		o.roots[h] = [2]string{"http://" + h, "https://" + h}
	}
	return o
}

// Of is the absolute root of the site as r should see it, without a
// trailing slash: the base URL when configured, else scheme://host.
func (o *origins) Of(r *http.Request) string {
	if o.base != "" {
		return o.base
	}
	return o.At(r.Host, o.scheme(r) == "https")
}

// At is the root of the site for a request with Host h, over https or not.
func (o *origins) At(h string, https bool) string {
	if o.base != "" {
		return o.base
	}
	roots := o.roots[o.host(h)]
	if https {
		return roots[1]
	}
	return roots[0]
}

// host is h, a request's Host, when it is one of the configured hosts,
// else the first.
func (o *origins) host(h string) string {
	if o.hosts[h] {
		return h
	}
	if l := strings.ToLower(h); o.hosts[l] {
		return l
	}
	return o.first
}

// scheme is "https" on a TLS connection; from a trusted proxy, what its
// X-Forwarded-Proto, X-Forwarded-Ssl or X-Url-Scheme says, if that is http
// or https; otherwise "http". echo's own Context.Scheme believes those
// headers from any loopback or private peer, so it is not used.
func (o *origins) scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if !o.FromProxy(r) {
		return "http"
	}
	for _, name := range schemeHeaders {
		// A chain of proxies appends; the last value is the nearest one's.
		v := r.Header.Get(name)
		if i := strings.LastIndexByte(v, ','); i >= 0 {
			v = v[i+1:]
		}
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "https":
			return "https"
		case "http":
			return "http"
		}
	}
	if strings.EqualFold(r.Header.Get(sslHeader), "on") {
		return "https"
	}
	return "http"
}

// The headers a trusted proxy names the scheme in: schemeHeaders, in
// order, then sslHeader.
var schemeHeaders = []string{"X-Forwarded-Proto", "X-Forwarded-Protocol", "X-Url-Scheme"}

const sslHeader = "X-Forwarded-Ssl"

// forwardedHeaders are all the headers read on a trusted proxy's requests:
// the client's address (clientIP) and the scheme.
var forwardedHeaders = append([]string{echo.HeaderXForwardedFor, sslHeader}, schemeHeaders...)

// FromProxy reports whether r's connection comes from a trusted proxy.
func (o *origins) FromProxy(r *http.Request) bool {
	if len(o.trusted) == 0 {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	for _, n := range o.trusted {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

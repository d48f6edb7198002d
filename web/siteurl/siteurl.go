// Package siteurl spells the site's addresses: the one place a page,
// project, tag, search, lookup or API path is built. The server's pages,
// its text and Markdown answers, the static export, `errkb annotate` and
// the errlink client all link through it, so an address changes in one
// place. The routes that answer these paths are declared in web/routes.go.
//
// It uses the standard library only, so errlink, which promises its users
// none of the server's dependencies, can import it.
package siteurl

import (
	"net/url"
	"strconv"
)

// Projects is the list of every project.
const Projects = "/errors"

// apiPrefix is where the JSON API answers.
const apiPrefix = "/api/v1"

// Project is the page of a project, "owner/repo".
func Project(repo string) string { return Projects + "/" + repo }

// Record is the canonical page of an error, from its project
// ("owner/repo") and slug.
func Record(repo, slug string) string { return Project(repo) + "/" + slug }

// Tag is the page of a tag.
func Tag(tag string) string { return "/tags/" + url.PathEscape(tag) }

// Search is a search for q.
func Search(q string) string { return "/search?q=" + url.QueryEscape(q) }

// SearchWith is a search with these parameters (q, repo, tag, severity,
// page), in url.Values' order.
func SearchWith(params url.Values) string { return "/search?" + params.Encode() }

// Lookup is the short form a log message can carry: it leads to the error
// q names, or to a search for it.
func Lookup(q string) string { return "/lookup?q=" + url.QueryEscape(q) }

// RecordWrapping is the record page at path (Record's) telling that the
// text looked up also held the error of record id, which it wraps: where
// a lookup of a log line that wraps an error sends a browser.
func RecordWrapping(path, id string) string { return path + "?wraps=" + url.QueryEscape(id) }

// API is the JSON answer that stands beside a page of the site: the
// record of an error page, for instance.
func API(path string) string { return apiPrefix + path }

// APILookup is the JSON answer of a lookup of q.
func APILookup(q string) string { return API(Lookup(q)) }

// SitemapPart is the nth part (from 1) of a sitemap too large for one
// file.
func SitemapPart(n int) string { return "/sitemap-" + strconv.Itoa(n) + ".xml" }

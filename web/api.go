package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
)

// RecordEnvelope is a record as the API serves it: the record's JSON exactly
// as it was given, with its dataset version and canonical URL.
type RecordEnvelope struct {
	Record         json.RawMessage `json:"record"`
	DatasetVersion string          `json:"datasetVersion"`
	URL            string          `json:"url"`
}

// APIHit is one search or lookup candidate.
type APIHit struct {
	ID           string              `json:"id"`
	Repo         string              `json:"repo"`
	Slug         string              `json:"slug"`
	ErrorCode    string              `json:"errorCode"`
	ErrorMessage string              `json:"errorMessage"`
	Severity     string              `json:"severity"`
	URL          string              `json:"url"`
	Score        float64             `json:"score"`
	Highlights   map[string][]string `json:"highlights"`
}

// LookupResponse is the answer of /api/v1/lookup and of `errkb lookup --json`.
type LookupResponse struct {
	Query  string          `json:"query"`
	Match  *RecordEnvelope `json:"match"`
	Reason string          `json:"reason,omitempty"`
	// Wraps is the error a log line that matched wraps, found in the text too.
	Wraps        *RecordEnvelope `json:"wraps,omitempty"`
	Alternatives []APIHit        `json:"alternatives"`
	DidYouMean   []APISuggestion `json:"didYouMean,omitempty"`
}

// SearchResponse is the answer of /api/v1/search.
type SearchResponse struct {
	Query      string                    `json:"query"`
	Total      int                       `json:"total"`
	Hits       []APIHit                  `json:"hits"`
	Facets     map[string]map[string]int `json:"facets"`
	DidYouMean []APISuggestion           `json:"didYouMean,omitempty"`
}

// APISuggestion is one "did you mean": the text to search for instead and
// where it leads (the record it names, or a search).
type APISuggestion struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

func apiSuggestions(ss []index.Suggestion, baseURL string) []APISuggestion {
	var out []APISuggestion
	for _, s := range ss {
		out = append(out, APISuggestion{Text: s.Text, URL: baseURL + suggestionURL(s)})
	}
	return out
}

// Envelope wraps r for the API; baseURL ("" for site-relative) prefixes url.
func Envelope(r *errkb.Record, baseURL string) *RecordEnvelope {
	return &RecordEnvelope{Record: r.RawJSON(), DatasetVersion: r.DatasetVersion, URL: baseURL + recordURL(r)}
}

// NewLookupResponse shapes a lookup result for JSON.
func NewLookupResponse(q string, res *index.LookupResult, baseURL string) LookupResponse {
	out := LookupResponse{Query: q, Reason: res.Reason, Alternatives: apiHits(res.Alternatives, baseURL),
		DidYouMean: apiSuggestions(res.DidYouMean, baseURL)}
	if res.Match != nil {
		out.Match = Envelope(res.Match, baseURL)
	}
	if res.Wrapped != nil {
		out.Wraps = Envelope(res.Wrapped, baseURL)
	}
	return out
}

func apiHits(hits []index.Hit, baseURL string) []APIHit {
	out := make([]APIHit, len(hits))
	for i, h := range hits {
		r := h.Record
		hl := h.Highlights
		if hl == nil {
			hl = map[string][]string{}
		}
		out[i] = APIHit{ID: r.ID, Repo: r.Repo, Slug: r.Slug, ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
			Severity: r.Severity, URL: baseURL + recordURL(r), Score: h.Score, Highlights: hl}
	}
	return out
}

func (s *Server) apiRecord(c echo.Context) error {
	r, ok := s.ds.ByPath(c.Param("owner")+"/"+c.Param("repo"), c.Param("slug"))
	if !ok {
		return notFound("no record at " + c.Param("owner") + "/" + c.Param("repo") + "/" + c.Param("slug"))
	}
	return writeJSON(c, http.StatusOK, Envelope(r, s.cfg.BaseURL))
}

func (s *Server) apiLookup(c echo.Context) error {
	q := c.QueryParam("q")
	if len(q) > index.MaxQueryBytes {
		return badRequest("q is longer than " + strconv.Itoa(index.MaxQueryBytes) + " bytes")
	}
	sr, err := s.search()
	if err != nil {
		return err
	}
	res, err := sr.Lookup(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, NewLookupResponse(q, res, s.cfg.BaseURL))
}

func (s *Server) apiSearch(c echo.Context) error {
	q, err := parseQuery(c)
	if err != nil {
		return err
	}
	if q.Limit, err = intParam(c, "limit", index.DefaultLimit, 1, index.MaxLimit); err != nil {
		return err
	}
	if q.Offset, err = intParam(c, "offset", 0, 0, index.MaxOffset); err != nil {
		return err
	}
	sr, err := s.search()
	if err != nil {
		return err
	}
	res, err := sr.Search(c.Request().Context(), q)
	if err != nil {
		return err
	}
	out := SearchResponse{Query: q.Text, Total: res.Total, Hits: apiHits(res.Hits, s.cfg.BaseURL), Facets: map[string]map[string]int{
		"repo": facetMap(res.Facets.Repo), "tag": facetMap(res.Facets.Tag), "severity": facetMap(res.Facets.Severity),
	}, DidYouMean: apiSuggestions(res.DidYouMean, s.cfg.BaseURL)}
	return writeJSON(c, http.StatusOK, out)
}

func facetMap(fcs []index.FacetCount) map[string]int {
	m := make(map[string]int, len(fcs))
	for _, fc := range fcs {
		m[fc.Value] = fc.Count
	}
	return m
}

//go:embed openapi.json
var openAPI []byte

func (s *Server) apiOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", openAPI)
}

// parseQuery reads q, repo, tag and severity, refusing oversize text.
func parseQuery(c echo.Context) (index.Query, error) {
	q := index.Query{Text: c.QueryParam("q"), Repo: c.QueryParam("repo"), Tag: c.QueryParam("tag"), Severity: c.QueryParam("severity")}
	if len(q.Text) > index.MaxQueryBytes {
		return q, badRequest("q is longer than " + strconv.Itoa(index.MaxQueryBytes) + " bytes")
	}
	return q, nil
}

// intParam reads an optional integer parameter within [lo, hi].
func intParam(c echo.Context, name string, def, lo, hi int) (int, error) {
	s := c.QueryParam(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, badRequest(name + " must be a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi))
	}
	return n, nil
}

// writeJSON writes v without escaping '<', '>' and '&', so records read as
// they were given.
func writeJSON(c echo.Context, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return c.Blob(status, "application/json; charset=utf-8", buf.Bytes())
}

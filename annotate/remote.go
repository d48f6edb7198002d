package annotate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/errkb/errkb/web/siteurl"
)

// Remote matches lines by asking a running errkb server's
// /api/v1/lookup, so it answers with that server's dataset.
type Remote struct {
	base   string
	client *http.Client
}

// remoteTimeout bounds one lookup; a stalled server must not stall the log.
const remoteTimeout = 10 * time.Second

// NewRemote checks that the errkb server at base answers lookups and
// returns a Matcher that uses it. A nil client means a default one.
func NewRemote(ctx context.Context, base string, client *http.Client) (*Remote, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q: want an http or https URL such as http://127.0.0.1:8080", base)
	}
	if client == nil {
		client = &http.Client{Timeout: remoteTimeout}
	}
	r := &Remote{base: strings.TrimRight(base, "/"), client: client}
	if _, _, err := r.Match(ctx, ""); err != nil {
		return nil, err
	}
	return r, nil
}

// lookupAnswer is the part of /api/v1/lookup's answer an annotation needs.
type lookupAnswer struct {
	Match *struct {
		Record struct {
			ErrorCode  string `json:"errorCode"`
			ErrorClass string `json:"errorClass"`
			Slug       string `json:"slug"`
		} `json:"record"`
		URL string `json:"url"`
	} `json:"match"`
}

// Match implements Matcher.
func (r *Remote) Match(ctx context.Context, line string) (Match, bool, error) {
	target := r.base + siteurl.APILookup(line)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return Match{}, false, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := r.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text repeats the whole request URL
		}
		return Match{}, false, fmt.Errorf("cannot reach the errkb server at %s: %w", r.base, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return Match{}, false, fmt.Errorf("errkb server %s: lookup answered %s: %s", r.base, res.Status, strings.TrimSpace(string(msg)))
	}
	var ans lookupAnswer
	if err := json.NewDecoder(io.LimitReader(res.Body, 8<<20)).Decode(&ans); err != nil {
		return Match{}, false, fmt.Errorf("errkb server %s: reading the lookup answer: %w", r.base, err)
	}
	if ans.Match == nil {
		return Match{}, false, nil
	}
	rec := ans.Match.Record
	u := ans.Match.URL
	if strings.HasPrefix(u, "/") {
		u = r.base + u // a server without --base-url answers site paths
	}
	return Match{Code: name(rec.ErrorCode, rec.ErrorClass, rec.Slug), URL: u}, true, nil
}

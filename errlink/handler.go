package errlink

import (
	"context"
	"log/slog"
)

// Handler wraps next so that a record carrying an error kb knows, as an
// attribute of the record or of the logger (Logger.With), gains an
// error_url attribute with the error's link. Records that already carry
// error_url are left as they are. After WithGroup, the attribute goes
// into the group, as every attribute added to a record does.
func (kb *KB) Handler(next slog.Handler) slog.Handler {
	return &handler{kb: kb, next: next}
}

type handler struct {
	kb   *KB
	next slog.Handler
	// link is the link of an error among the logger's own attributes,
	// used when the record itself carries none; has says the logger
	// already carries error_url.
	link string
	has  bool
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	if h.has {
		return h.next.Handle(ctx, r)
	}
	link, has := "", false
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == AttrKey {
			has = true
			return false
		}
		if link == "" {
			link = h.linkOf(a)
		}
		return true
	})
	if link == "" {
		link = h.link
	}
	if has || link == "" {
		return h.next.Handle(ctx, r)
	}
	r = r.Clone()
	r.AddAttrs(slog.String(AttrKey, link))
	return h.next.Handle(ctx, r)
}

// linkOf is the link of the error a holds, or "".
func (h *handler) linkOf(a slog.Attr) string {
	v := a.Value.Resolve()
	if v.Kind() != slog.KindAny {
		return ""
	}
	err, ok := v.Any().(error)
	if !ok {
		return ""
	}
	link, _ := h.kb.URL(err)
	return link
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h2 := *h
	h2.next = h.next.WithAttrs(attrs)
	for _, a := range attrs {
		if a.Key == AttrKey {
			h2.has = true
		}
		if h2.link == "" {
			h2.link = h.linkOf(a)
		}
	}
	return &h2
}

func (h *handler) WithGroup(name string) slog.Handler {
	h2 := *h
	h2.next = h.next.WithGroup(name)
	return &h2
}

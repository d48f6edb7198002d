package kbgen

// lang describes one target language: how paths look, how snippets are
// indented and the templates for filler code and the record's code fields.
// Templates are written with tabs; expand turns each tab into indent.
type lang struct {
	name    string
	ext     string
	indent  string
	closer  string // line closing the guard block, empty for Python
	fillers []string
	guards  []string
	fix     []string
	valid   []string
	guard   []string
	try     []string
}

// Language indexes into langs.
const (
	langGo = iota
	langPython
	langTS
	langRust
)

var langs = [...]lang{
	langGo: {
		name: "go", ext: ".go", indent: "\t", closer: "\t}",
		fillers: []string{
			"\t// {comment}", "",
			"\t{field}, err := {recv}.{verb}{Subj}(ctx, {var}.{Field})\n\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"{verb} {S} %s: %w\", {var}.Name, err)\n\t}",
			"\t{recv}.mu.Lock()\n\tdefer {recv}.mu.Unlock()",
			"\tfor _, item := range {recv}.{field}s {\n\t\tif item.{Field} == {var}.{Field} {\n\t\t\tcontinue\n\t\t}\n\t\t{recv}.pending = append({recv}.pending, item)\n\t}",
			"\t{recv}.metrics.{Verb}Total.Inc()",
			"\tlog.Debug(\"{verb} {S}\", \"name\", {var}.Name, \"{field}\", {var}.{Field})",
			"\tif {var}.{Field} == nil {\n\t\t{var}.{Field} = defaults.{Field}\n\t}",
			"\tctx, cancel := context.WithTimeout(ctx, {recv}.cfg.{Verb}Timeout)\n\tdefer cancel()",
			"\tselect {\n\tcase <-ctx.Done():\n\t\treturn nil, ctx.Err()\n\tdefault:\n\t}",
			"\tkey := {recv}.keyFor({var}.Name)",
			"\t{recv}.lastSeen[{var}.Name] = {recv}.clock.Now()",
			"\ttrace.SpanFromContext(ctx).AddEvent(\"{verb} {S}\")",
			"\tif {var}.{Field} == {recv}.cfg.Default{Field} {\n\t\t{recv}.metrics.Default{Field}Hits.Inc()\n\t}",
			"\tswitch {var}.State {\n\tcase StateActive:\n\t\t{recv}.active++\n\tcase StateDraining:\n\t\t{recv}.draining++\n\t}",
			"\t{recv}.notify({var}.Name, event{Verb})",
			"\tdefer {recv}.release({var})",
		},
		guards: []string{"\tif !ok {", "\tif {var} == nil {", "\tif {var}.{Field} > {recv}.cfg.Max{Field} {", "\tif !{recv}.{verb}Allowed({var}) {"},
		fix: []string{
			"// before\n{var}, err := client.{Fn}(ctx, name)\nif err != nil {\n\treturn err\n}\n\n// after\n{var}, err := client.{Fn}(ctx, name)\nvar e *{pkg}.{Class}\nif errors.As(err, &e) && e.Code == \"{code}\" {\n\t// the {S} is {phrase}: handle it instead of failing the request\n\treturn {recv}.recover{Subj}(ctx, name)\n}\nif err != nil {\n\treturn fmt.Errorf(\"{verb} {S} %q: %w\", name, err)\n}",
			"// before: the error is swallowed\n_ = svc.{Fn}(ctx, req)\n\n// after: check and surface it\nif err := svc.{Fn}(ctx, req); err != nil {\n\tif {pkg}.Is{Class}(err) {\n\t\treturn status.Errorf(codes.FailedPrecondition, \"{S} %s: %v\", req.Name, err)\n\t}\n\treturn err\n}",
		},
		valid: []string{
			"func validate{Subj}(c *{pkg}.{Subj}Config) error {\n\tif c.Name == \"\" {\n\t\treturn errors.New(\"{S} name is required\")\n\t}\n\tif c.Max{Field} <= 0 {\n\t\treturn fmt.Errorf(\"{S} %q: max {field} must be positive\", c.Name)\n\t}\n\treturn nil\n}",
			"if err := {recv}.check{Subj}(ctx, name); err != nil {\n\treturn fmt.Errorf(\"precheck {S} %q: %w\", name, err)\n}",
		},
		guard: []string{
			"func is{Class}(err error) bool {\n\tvar e *{pkg}.{Class}\n\treturn errors.As(err, &e) && e.Code == \"{code}\"\n}",
			"func {fn}Failed(err error) (*{pkg}.{Class}, bool) {\n\tvar e *{pkg}.{Class}\n\tif errors.As(err, &e) {\n\t\treturn e, true\n\t}\n\treturn nil, false\n}",
		},
		try: []string{
			"for attempt := 0; attempt < 5; attempt++ {\n\terr = svc.{Fn}(ctx, name)\n\tif !is{Class}(err) {\n\t\tbreak\n\t}\n\ttime.Sleep(backoff(attempt))\n}",
			"defer func() {\n\tif r := recover(); r != nil {\n\t\tlog.Error(\"{verb} {S} panicked\", \"code\", \"{code}\", \"panic\", r)\n\t}\n}()\nif err := svc.{Fn}(ctx, name); err != nil {\n\treturn err\n}",
		},
	},
	langPython: {
		name: "python", ext: ".py", indent: "    ",
		fillers: []string{
			"\t# {comment}", "",
			"\t{field} = self._{verb}_{S}({var}.{field})\n\tif {field} is None:\n\t\treturn None",
			"\twith self._lock:\n\t\tself._pending.append({var})",
			"\tfor item in self._{field}s:\n\t\tif item.{field} == {var}.{field}:\n\t\t\tcontinue\n\t\tself._queue.put(item)",
			"\tself._metrics.{verb}_total.inc()",
			"\tlogger.debug(\"{verb} {S} %s\", {var}.name)",
			"\tif not {var}.{field}:\n\t\t{var}.{field} = DEFAULTS[\"{field}\"]",
			"\tdeadline = time.monotonic() + self._config.{verb}_timeout",
			"\ttry:\n\t\tself._{verb}({var})\n\texcept KeyError:\n\t\tpass",
			"\tkey = self._key_for({var}.name)",
			"\tself._last_seen[{var}.name] = self._clock()",
			"\tspan.add_event(\"{verb} {S}\")",
			"\tif {var}.{field} == self._config.default_{field}:\n\t\tself._metrics.default_{field}_hits.inc()",
			"\tif {var}.state is State.ACTIVE:\n\t\tself._active += 1\n\telif {var}.state is State.DRAINING:\n\t\tself._draining += 1",
			"\tself._notify({var}.name, Event.{FIELD})",
			"\tassert {var}.name, \"{S} without a name\"",
		},
		guards: []string{"\tif {var} is None:", "\tif not ok:", "\tif {var}.{field} > self._config.max_{field}:", "\tif not self._{verb}_allowed({var}):"},
		fix: []string{
			"# before\n{var} = client.{fn}(name)\n\n# after\ntry:\n\t{var} = client.{fn}(name)\nexcept {pkg}.{Class} as exc:\n\tif exc.code != \"{code}\":\n\t\traise\n\t# the {S} is {phrase}: recover instead of crashing\n\t{var} = client.recover_{S}(name)",
			"# before: errors are ignored\nclient.{fn}(name, strict=False)\n\n# after: fail loudly and keep the code\ntry:\n\tclient.{fn}(name, strict=True)\nexcept {pkg}.{Class} as exc:\n\tlogger.error(\"{verb} {S} failed: %s (code=%s)\", exc, exc.code)\n\traise",
		},
		valid: []string{
			"def validate_{S}(cfg: dict) -> None:\n\tif not cfg.get(\"name\"):\n\t\traise ValueError(\"{S} name is required\")\n\tif cfg.get(\"max_{field}\", 1) <= 0:\n\t\traise ValueError(f\"{S} {cfg['name']!r}: max_{field} must be positive\")",
			"if not client.{S}_exists(name):\n\traise LookupError(f\"{S} {name!r} does not exist\")",
		},
		guard: []string{
			"def is_{S}_error(exc: BaseException) -> bool:\n\treturn isinstance(exc, {pkg}.{Class}) and exc.code == \"{code}\"",
			"def {fn}_failed(exc: Exception) -> \"TypeGuard[{pkg}.{Class}]\":\n\treturn getattr(exc, \"code\", None) == \"{code}\"",
		},
		try: []string{
			"for attempt in range(5):\n\ttry:\n\t\treturn client.{fn}(name)\n\texcept {pkg}.{Class}:\n\t\ttime.sleep(2 ** attempt)\nraise RuntimeError(\"{S} still failing after retries\")",
			"try:\n\tclient.{fn}(name)\nexcept {pkg}.{Class} as exc:\n\tlogger.warning(\"{code}: %s\", exc)\nfinally:\n\tclient.close()",
		},
	},
	langTS: {
		name: "typescript", ext: ".ts", indent: "  ", closer: "\t}",
		fillers: []string{
			"\t// {comment}", "",
			"\tconst {field} = await this.{verb}{Subj}({var}.{field});\n\tif (!{field}) {\n\t\treturn undefined;\n\t}",
			"\tthis.pending.push({var});",
			"\tfor (const item of this.{field}s) {\n\t\tif (item.{field} === {var}.{field}) {\n\t\t\tcontinue;\n\t\t}\n\t\tthis.queue.enqueue(item);\n\t}",
			"\tthis.metrics.{verb}Total.inc();",
			"\tthis.logger.debug(`{verb} {S} ${{var}.name}`);",
			"\tif ({var}.{field} === undefined) {\n\t\t{var}.{field} = DEFAULTS.{field};\n\t}",
			"\tconst deadline = Date.now() + this.config.{verb}TimeoutMs;",
			"\tconst key = this.keyFor({var}.name);",
			"\tthis.lastSeen.set({var}.name, this.clock.now());",
			"\tspan.addEvent(\"{verb} {S}\");",
			"\tif ({var}.{field} === this.config.default{Field}) {\n\t\tthis.metrics.default{Field}Hits.inc();\n\t}",
			"\tswitch ({var}.state) {\n\t\tcase \"active\":\n\t\t\tthis.active++;\n\t\t\tbreak;\n\t\tcase \"draining\":\n\t\t\tthis.draining++;\n\t\t\tbreak;\n\t}",
			"\tthis.notify({var}.name, \"{verb}\");",
			"\tassert({var}.name, \"{S} without a name\");",
		},
		guards: []string{"\tif (!{var}) {", "\tif (!ok) {", "\tif ({var}.{field} > this.config.max{Field}) {", "\tif (!this.{verb}Allowed({var})) {"},
		fix: []string{
			"// before\nconst {var} = await client.{fn}(name);\n\n// after\nlet {var};\ntry {\n\t{var} = await client.{fn}(name);\n} catch (err) {\n\tif (!(err instanceof {Class}) || err.code !== \"{code}\") throw err;\n\t// the {S} is {phrase}: recover instead of failing\n\t{var} = await client.recover{Subj}(name);\n}",
			"// before: unhandled rejection\nclient.{fn}(name);\n\n// after\nawait client.{fn}(name).catch((err: unknown) => {\n\tif (is{Class}(err)) {\n\t\tlogger.warn(`{S} ${name}: ${err.message}`);\n\t\treturn undefined;\n\t}\n\tthrow err;\n});",
		},
		valid: []string{
			"export function validate{Subj}(cfg: {Subj}Config): void {\n\tif (!cfg.name) {\n\t\tthrow new TypeError(\"{S} name is required\");\n\t}\n\tif ((cfg.max{Field} ?? 1) <= 0) {\n\t\tthrow new RangeError(`{S} ${cfg.name}: max{Field} must be positive`);\n\t}\n}",
			"if (!(await client.has{Subj}(name))) {\n\tthrow new Error(`{S} ${name} does not exist`);\n}",
		},
		guard: []string{
			"export function is{Class}(err: unknown): err is {Class} {\n\treturn err instanceof {Class} && err.code === \"{code}\";\n}",
			"const is{Class} = (e: unknown): e is {Class} =>\n\ttypeof e === \"object\" && e !== null && (e as { code?: string }).code === \"{code}\";",
		},
		try: []string{
			"for (let attempt = 0; attempt < 5; attempt++) {\n\ttry {\n\t\treturn await client.{fn}(name);\n\t} catch (err) {\n\t\tif (!is{Class}(err)) throw err;\n\t\tawait sleep(2 ** attempt * 100);\n\t}\n}",
			"try {\n\tawait client.{fn}(name);\n} catch (err) {\n\tif (is{Class}(err)) {\n\t\tmetrics.increment(\"{code}\");\n\t}\n\tthrow err;\n} finally {\n\tawait client.close();\n}",
		},
	},
	langRust: {
		name: "rust", ext: ".rs", indent: "    ", closer: "\t}",
		fillers: []string{
			"\t// {comment}", "",
			"\tlet {field} = self.{verb}_{S}(&{var}.{field})?;",
			"\tlet mut guard = self.state.lock().unwrap();\n\tguard.pending.push({var}.clone());",
			"\tfor item in &self.{field}s {\n\t\tif item.{field} == {var}.{field} {\n\t\t\tcontinue;\n\t\t}\n\t\tself.queue.push(item.clone());\n\t}",
			"\tself.metrics.{verb}_total.inc();",
			"\ttracing::debug!(name = %{var}.name, \"{verb} {S}\");",
			"\tif {var}.{field}.is_none() {\n\t\t{var}.{field} = Some(DEFAULT_{FIELD});\n\t}",
			"\tlet deadline = Instant::now() + self.config.{verb}_timeout;",
			"\tlet key = self.key_for(&{var}.name);",
			"\tself.last_seen.insert({var}.name.clone(), self.clock.now());",
			"\tspan.add_event(\"{verb} {S}\", vec![]);",
			"\tif {var}.{field} == self.config.default_{field} {\n\t\tself.metrics.default_{field}_hits.inc();\n\t}",
			"\tmatch {var}.state {\n\t\tState::Active => self.active += 1,\n\t\tState::Draining => self.draining += 1,\n\t\t_ => {}\n\t}",
			"\tself.notify(&{var}.name, Event::{Verb});",
			"\tdebug_assert!(!{var}.name.is_empty(), \"{S} without a name\");",
		},
		guards: []string{"\tif {var}.is_none() {", "\tif !ok {", "\tif {var}.{field} > self.config.max_{field} {", "\tif !self.{verb}_allowed(&{var}) {"},
		fix: []string{
			"// before\nlet {var} = client.{fn}(&name)?;\n\n// after\nlet {var} = match client.{fn}(&name) {\n\tOk(v) => v,\n\tErr(e) if e.code() == \"{code}\" => {\n\t\t// the {S} is {phrase}: recover instead of bubbling up\n\t\tclient.recover_{S}(&name)?\n\t}\n\tErr(e) => return Err(e.into()),\n};",
			"// before: panics on failure\nlet {var} = client.{fn}(&name).unwrap();\n\n// after\nlet {var} = client\n\t.{fn}(&name)\n\t.map_err(|e| anyhow::anyhow!(\"{verb} {S} {name}: {e}\"))?;",
		},
		valid: []string{
			"fn validate_{S}(cfg: &{Subj}Config) -> Result<(), ConfigError> {\n\tif cfg.name.is_empty() {\n\t\treturn Err(ConfigError::new(\"{S} name is required\"));\n\t}\n\tif cfg.max_{field} == 0 {\n\t\treturn Err(ConfigError::new(\"{S} max_{field} must be positive\"));\n\t}\n\tOk(())\n}",
			"if !client.{S}_exists(&name)? {\n\treturn Err({Class}::new(\"{code}\", format!(\"{S} {name} does not exist\")).into());\n}",
		},
		guard: []string{
			"fn is_{S}_error(err: &(dyn std::error::Error + 'static)) -> bool {\n\terr.downcast_ref::<{pkg}::{Class}>()\n\t\t.map_or(false, |e| e.code() == \"{code}\")\n}",
			"matches!(err, {pkg}::Error::{Subj}(ref e) if e.code() == \"{code}\")",
		},
		try: []string{
			"let mut delay = Duration::from_millis(100);\nfor _ in 0..5 {\n\tmatch client.{fn}(&name) {\n\t\tErr(e) if is_{S}_error(&e) => {\n\t\t\tstd::thread::sleep(delay);\n\t\t\tdelay *= 2;\n\t\t}\n\t\tother => return other,\n\t}\n}",
			"if let Err(e) = client.{fn}(&name) {\n\ttracing::warn!(code = \"{code}\", error = %e, \"{verb} {S} failed\");\n\treturn Err(e.into());\n}",
		},
	},
}

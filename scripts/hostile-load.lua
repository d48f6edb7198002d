-- wrk script for scripts/hostile-load.sh: 90% normal queries, 10% hostile
-- ones, each thread counting answers by status. (wrk does not say which
-- request an answer belongs to, so statuses are not split by kind; the
-- normal-only run gives the normal-query latency.)
-- Set WRK_MODE=normal in the environment for normal queries only.

local normal = {
  "/search?q=consumer+offline", "/api/v1/search?q=stream+closed&limit=20",
  "/api/v1/lookup?q=E_FICT_42", "/lookup?q=connection+refused+by+broker",
  "/search?q=timeout&repo=example-org%2Fproject-3", "/errors/example-org/project-7",
  "/api/v1/search?q=replica+lag&offset=20", "/search?q=quota+exceeded&page=2",
  "/api/v1/lookup?q=2026-11-30T01:02:03Z+ERROR+worker+3+failed:+lease+expired+for+shard+12",
  "/", "/errors/nats-io/nats-server/js-consumer-offline", "/api/v1/lookup?q=JS_CONSUMER_OFFLINE",
}

local function rep(s, n) return string.rep(s, n) end

local hostile = {
  "/search?q=*", "/api/v1/search?q=" .. rep("a*+", 60), "/search?q=%2F.*%2F", "/api/v1/search?q=foo~99",
  "/search?q=%22unclosed+(((+[[[+%3A%3A%3A", "/api/v1/search?limit=-1", "/search?page=abc",
  "/api/v1/search?offset=99999999999999", "/search?q=" .. rep("q", 9000),
  "/api/v1/lookup?q=" .. rep("word+", 1600), "/search?q=" .. rep("%E6%97%A5", 2700),
  "/api/v1/search?q=" .. rep("x", 40000), "/errors/..%2f..%2fetc%2fpasswd", "/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "/lookup?q=%00%FF%FE", "/api/v1/search?q=" .. rep("a.", 4000),
}

local mode = os.getenv("WRK_MODE") or "mixed"
local counter = 0
counts = {}

request = function()
  counter = counter + 1
  local path
  if mode ~= "normal" and counter % 10 == 0 then
    path = hostile[(counter / 10) % #hostile + 1]
  else
    path = normal[counter % #normal + 1]
  end
  return wrk.format("GET", path)
end

response = function(status, headers, body)
  local key = "status " .. tostring(status)
  counts[key] = (counts[key] or 0) + 1
end

local threads = {}
setup = function(thread) table.insert(threads, thread) end

done = function(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do total[k] = (total[k] or 0) + v end
  end
  local keys = {}
  for k in pairs(total) do table.insert(keys, k) end
  table.sort(keys)
  io.write("answers by kind and status:\n")
  for _, k in ipairs(keys) do io.write(string.format("  %-14s %d\n", k, total[k])) end
  io.write(string.format("latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("errors: connect %d, read %d, write %d, timeout %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end

-- wrk script for scripts/load.sh: searches of about 8 KiB of random words
-- (the query limit is 8 KiB), 200 different ones in turn, as one client
-- flooding the search would send. Answers by status are counted.
local words = {"stream", "consumer", "offline", "timeout", "connection", "refused", "broker", "replica",
  "lag", "quota", "exceeded", "lease", "expired", "shard", "leader", "election", "snapshot", "checksum",
  "mismatch", "partition", "handshake", "certificate", "cursor", "jetstream", "raft", "quorum"}
local queries = {}
math.randomseed(42)
for i = 1, 200 do
  local parts, size = {}, 0
  while size < 8000 do
    local w = words[math.random(#words)] .. math.random(99999)
    parts[#parts + 1] = w
    size = size + #w + 1
  end
  queries[i] = "/search?q=" .. table.concat(parts, "+")
end
local i = 0
request = function()
  i = i % #queries + 1
  return wrk.format(nil, queries[i])
end

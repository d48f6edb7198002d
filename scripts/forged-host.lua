-- wrk script for scripts/load.sh: every request carries a fresh Host, as a
-- client trying to flush or split the response cache would send.
local n = 0
request = function()
  n = n + 1
  wrk.headers["Host"] = "forged-" .. n .. "-" .. math.random(1000000000) .. ".example"
  return wrk.format(nil)
end

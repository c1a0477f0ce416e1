-- binarytrees.lua N: allocate and walk binary trees of depth up to N (the garbage collector)
local function bottom_up(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return {bottom_up(depth), bottom_up(depth)}
end
local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end
local N = assert(tonumber(arg[1]), "usage: binarytrees.lua N")
local mindepth = 4
local maxdepth = math.max(mindepth + 2, N)
local stretch = maxdepth + 1
io.write(string.format("stretch tree of depth %d\t check: %d\n", stretch, check(bottom_up(stretch))))
local longlived = bottom_up(maxdepth)
for depth = mindepth, maxdepth, 2 do
  local iters = 2 ^ (maxdepth - depth + mindepth)
  local c = 0
  for _ = 1, iters do c = c + check(bottom_up(depth)) end
  io.write(string.format("%d\t trees of depth %d\t check: %d\n", iters, depth, c))
end
io.write(string.format("long lived tree of depth %d\t check: %d\n", maxdepth, check(longlived)))

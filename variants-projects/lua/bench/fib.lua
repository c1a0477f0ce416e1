-- fib.lua N: the N-th Fibonacci number by naive recursion (calls and returns)
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
local n = assert(tonumber(arg[1]), "usage: fib.lua N")
print(fib(n))

// ranks.cpp: ranks N -- the distinct values among N pseudo-random ones and
// a checksum of them in order, by sorting (default) or by counting in a
// std::map (-DUSE_MAP, the variant's define)
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#include <algorithm>

static std::vector<std::uint32_t> values(std::uint64_t n)
{
	std::vector<std::uint32_t> v;
	v.reserve(n);
	std::uint32_t x = 1;
	for (std::uint64_t i = 0; i < n; i++)
		v.push_back((x = x * 1103515245u + 12345u) >> 12);
	return v;
}

int main(int argc, char **argv)
{
	char *end;
	if (argc != 2 || !*argv[1] || (std::strtoull(argv[1], &end, 10), *end)) {
		std::cerr << "usage: ranks N\n";
		return 2;
	}
	std::vector<std::uint32_t> v = values(std::strtoull(argv[1], nullptr, 10));
	std::uint64_t distinct = 0, sum = 0;
#ifdef USE_MAP
	std::map<std::uint32_t, std::uint64_t> counts;
	for (std::uint32_t x : v)
		counts[x]++;
	for (const auto &kv : counts)
		sum = sum * 31 + kv.first, distinct++;
#else
	std::sort(v.begin(), v.end());
	for (std::size_t i = 0; i < v.size(); i++)
		if (i == 0 || v[i] != v[i - 1])
			sum = sum * 31 + v[i], distinct++;
#endif
	std::cout << distinct << " " << sum << "\n";
	return 0;
}

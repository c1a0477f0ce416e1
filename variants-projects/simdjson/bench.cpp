// bench.cpp N: the benchmark driver of the simdjson family.  Makes a JSON
// document of N records (the same text for every N on every machine: a
// fixed generator), then parses it PASSES times with simdjson's DOM
// parser (the amalgamated upstream/simdjson.cpp), walking every record;
// prints a summary of what it read, the same for every correct build.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "simdjson.h"

static const int PASSES = 8;

static std::uint64_t next(std::uint64_t &s)
{
	s = s * 6364136223846793005ULL + 1442695040888963407ULL;
	return s >> 33;
}

static std::string document(std::uint64_t n)
{
	std::string j = "[";
	std::uint64_t s = 47;
	char buf[256];
	for (std::uint64_t i = 0; i < n; i++) {
		std::uint64_t a = next(s), b = next(s), t = next(s) % 5;
		std::snprintf(buf, sizeof(buf),
			      "%s{\"id\":%llu,\"name\":\"user_%llx\",\"score\":%llu.%03llu,\"active\":%s,\"tags\":[",
			      i ? "," : "", (unsigned long long)i, (unsigned long long)a,
			      (unsigned long long)(b % 100000), (unsigned long long)(a % 1000), b & 1 ? "true" : "false");
		j += buf;
		for (std::uint64_t k = 0; k < t; k++) {
			std::snprintf(buf, sizeof(buf), "%s\"t%llu\"", k ? "," : "", (unsigned long long)((a >> k) % 97));
			j += buf;
		}
		j += "]}";
	}
	j += "]";
	return j;
}

int main(int argc, char **argv)
{
	char *end;
	if (argc != 2 || !*argv[1] || (std::strtoull(argv[1], &end, 10), *end)) {
		std::fprintf(stderr, "usage: bench N\n");
		return 2;
	}
	std::string text = document(std::strtoull(argv[1], nullptr, 10));
	simdjson::padded_string json(text);
	simdjson::dom::parser parser;
	std::uint64_t records = 0, ids = 0, name_bytes = 0, active = 0, tags = 0;
	std::int64_t milli = 0;
	for (int pass = 0; pass < PASSES; pass++) {
		simdjson::dom::element doc;
		if (parser.parse(json).get(doc)) {
			std::fprintf(stderr, "bench: simdjson could not parse the document\n");
			return 1;
		}
		for (simdjson::dom::object o : doc.get_array()) {
			records++;
			ids += std::uint64_t(o["id"]);
			name_bytes += std::string_view(o["name"]).size();
			milli += std::llround(double(o["score"]) * 1000);
			active += bool(o["active"]);
			tags += simdjson::dom::array(o["tags"]).size();
		}
	}
	std::printf("%llu records, id sum %llu, name bytes %llu, score sum %lld/1000, active %llu, tags %llu\n",
		    (unsigned long long)records, (unsigned long long)ids, (unsigned long long)name_bytes,
		    (long long)milli, (unsigned long long)active, (unsigned long long)tags);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* SPDX-License-Identifier: MIT */
/*
 * profile-format-test.c - the profile format's shared facts
 * (include/selinst-profile.h) and the report's parsers built on them:
 * every trip-count bucket's name parses back to the bucket, names that are
 * no bucket are refused, kind names round-trip, and the bucket of a count
 * holds that count.  Links the report's objects (testsuite/t-unit-internals.sh).
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; \
	fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static void buckets_round_trip(void)
{
	char name[64];
	for (unsigned b = 0; b < SELINST_TRIP_BUCKETS; b++) {
		uint64_t lo, hi;
		selinst_trip_bucket_bounds(b, &lo, &hi);
		CHECK(lo <= hi, "bucket %u: %llu > %llu", b,
		      (unsigned long long)lo, (unsigned long long)hi);
		CHECK(selinst_trip_bucket(lo) == b && selinst_trip_bucket(hi) == b,
		      "bucket %u does not hold its bounds", b);
		if (b + 1 < SELINST_TRIP_BUCKETS) {
			uint64_t nlo, nhi;
			selinst_trip_bucket_bounds(b + 1, &nlo, &nhi);
			CHECK(nlo == hi + 1, "gap after bucket %u", b);
		} else
			CHECK(hi == UINT64_MAX, "last bucket ends at %llu",
			      (unsigned long long)hi);
		selinst_trip_bucket_name(b, name, sizeof name);
		CHECK(trip_bucket_parse(name) == (int)b, "'%s' parses to %d, not %u",
		      name, trip_bucket_parse(name), b);
	}
	CHECK(selinst_trip_bucket(0) == 0, "0");
	CHECK(selinst_trip_bucket(15) == 15, "15");
	CHECK(selinst_trip_bucket(16) == 16, "16");
	CHECK(selinst_trip_bucket(31) == 16, "31");
	CHECK(selinst_trip_bucket(32) == 17, "32");
	CHECK(selinst_trip_bucket(UINT64_MAX) == SELINST_TRIP_BUCKETS - 1, "max");
}

static void bucket_names_refused(void)
{
	static const char *const bad[] = {
		"", "-", "16", "31", "5-5", "16-16", "16-32", "17-31", "32-63x",
		"01", "0x10", "-1", "16 - 31", "9223372036854775808",
		"9223372036854775808-18446744073709551616", "18446744073709551616",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(trip_bucket_parse(bad[i]) == -1, "'%s' taken as bucket %d",
		      bad[i], trip_bucket_parse(bad[i]));
	CHECK(trip_bucket_parse("9223372036854775808-18446744073709551615")
	      == SELINST_TRIP_BUCKETS - 1, "last bucket's name");
}

static void kinds(void)
{
	CHECK(!strcmp(kind_name(K_FUNCTION), "function"), "function");
	CHECK(!strcmp(kind_name(K_LOOP), "loop"), "loop");
	CHECK(!strcmp(kind_name(K_MANUAL), "manual"), "manual");
	CHECK(!strcmp(selinst_profile_kind_name(SELINST_KIND_LOOP), "loop"), "runtime loop");
	CHECK(!strcmp(selinst_profile_kind_name(99), "function"), "out of range");
}

static void seconds(void)
{
	char buf[32];
	fmt_secs(buf, sizeof buf, 1.23456);
	CHECK(!strcmp(buf, "1.235"), "1.23456 -> %s", buf);
	fmt_secs(buf, sizeof buf, 123.45);
	CHECK(!strcmp(buf, "123.5"), "123.45 -> %s", buf);
	fmt_secs(buf, sizeof buf, 123456.0);
	CHECK(!strcmp(buf, "1.23e+05"), "123456 -> %s", buf);
}

int main(void)
{
	buckets_round_trip();
	bucket_names_refused();
	kinds();
	seconds();
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("profile format: %d buckets, kinds, formatters: ok\n",
		       SELINST_TRIP_BUCKETS);
	return failures != 0;
}

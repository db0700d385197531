// The JSON the course reads back (base/json_value.*): what a run's record holds, every kind of
// value and escape in it, and a line number for what is not JSON.
#include <doctest/doctest.h>

#include <string>

#include "json_value.hpp"

TEST_CASE("the JSON reader reads objects, arrays, numbers, strings with escapes, true, false and null") {
  const course::JsonValue v = course::parse_json(
      "{\"a\": [1, -2.5e3, 0.0761], \"s\": \"tab\\there \\\"q\\\" \\u00e9\\n\", \"t\": true, \"f\": false, \"n\": null,"
      " \"o\": {}, \"e\": []}");
  REQUIRE(v.kind == course::JsonValue::Kind::object);
  REQUIRE(v.find("a") != nullptr);
  REQUIRE(v.find("a")->items.size() == 3);
  CHECK(v.find("a")->items[1].number == -2500);
  CHECK(v.find("a")->items[2].number == doctest::Approx(0.0761));
  CHECK(v.find("s")->string == "tab\there \"q\" \xc3\xa9\n");
  CHECK(v.find("t")->boolean);
  CHECK(v.find("f")->kind == course::JsonValue::Kind::boolean);
  CHECK_FALSE(v.find("f")->boolean);
  CHECK(v.find("n")->kind == course::JsonValue::Kind::null);
  CHECK(v.find("o")->members.empty());
  CHECK(v.find("e")->items.empty());
  CHECK(v.find("missing") == nullptr);
}

TEST_CASE("the JSON reader names the line where a document stops being JSON") {
  for (const char* broken : {"{\"a\": 1,\n\"b\": }", "{\"a\": 1\n\n", "[1, 2\n, x]", "{\"a\": \"open}", "{} {}"}) {
    CAPTURE(broken);
    CHECK_THROWS_AS(course::parse_json(broken), course::JsonError);
  }
  try {
    course::parse_json("{\"a\": 1,\n\"b\": }");
  } catch (const course::JsonError& e) {
    CHECK(std::string(e.what()).rfind("line 2:", 0) == 0);
  }
}

// The test runner's main(): doctest's own, compiled once for all test files.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

"""./course memcheck and ./course fuzz: their scripts, given the arguments typed."""
import unittest

from cli.tests.fake_course import FakeCourseTest

ECHO = '#!/bin/sh\necho "$(basename "$0") $*"\n'


class Memcheck(FakeCourseTest):
    def test_memcheck_hands_its_arguments_to_the_valgrind_script(self):
        self.fake.fake_program("valgrind", ECHO)
        self.fake.write("valgrind/memcheck.sh", ECHO, executable=True)
        self.fake.stamp()
        self.assertEqual(self.fake.course("memcheck", "build/lessons/lesson_02", "--size", "8x8")[:2],
                         (0, "memcheck.sh build/lessons/lesson_02 --size 8x8\n"))


class Fuzz(FakeCourseTest):
    def test_fuzz_hands_its_seconds_to_the_fuzz_script(self):
        self.fake.fake_program("clang++", "#!/bin/sh\nexit 0\n")
        self.fake.write("fuzz/run.sh", ECHO, executable=True)
        status, out, err = self.fake.course("fuzz", "5")
        if status == 2 and "missing" in err:
            self.skipTest("the course's packages are not all installed here: " + err)
        self.assertEqual((status, out), (0, "run.sh 5\n"))


if __name__ == "__main__":
    unittest.main()

"""./course bench: the Python that runs the driver, and the lessons each ladder reads."""
import os
import sys
import unittest

from cli import bench, course


class Bench(unittest.TestCase):
    def test_the_driver_runs_on_a_python_found_here(self):
        self.assertTrue(os.access(bench.python_with_opencv(), os.X_OK))

    def test_every_operation_of_the_manifest_is_a_ladder_of_the_driver(self):
        sys.path.insert(0, os.path.join(course.ROOT, "bench"))
        import course_bench
        operations = course_bench.read_operations()
        for lesson in course.lessons():
            for entry in lesson.bench:
                self.assertIn((lesson.number, entry.partition(":")[2] or None), operations[entry.partition(":")[0]])


if __name__ == "__main__":
    unittest.main()

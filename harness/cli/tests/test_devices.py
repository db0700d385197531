"""./course devices: the device list program, given the options typed."""
import unittest

from cli.tests.fake_course import FakeCourseTest


class Devices(FakeCourseTest):
    def test_devices_runs_the_list_program_with_the_options_and_its_exit_status(self):
        self.fake.write("build/bin/course-devices", '#!/bin/sh\necho "devices: $*"\nexit 3\n', executable=True)
        self.assertEqual(self.fake.course("devices", "--device", "gpu")[:2], (3, "devices: --device gpu\n"))

    def test_a_program_not_built_is_named_with_what_to_do(self):
        status, _, err = self.fake.course("devices")
        self.assertEqual(status, 2)
        self.assertIn("course-devices", err)
        self.assertIn("./course setup builds it", err)


if __name__ == "__main__":
    unittest.main()

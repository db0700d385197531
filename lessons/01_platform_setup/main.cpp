// Lesson 01: platform setup, by hand.
// Walks through every host step an OpenCL program takes, in order: find platforms and devices,
// make a context and a queue, build a program, make buffers, set kernel arguments, launch an
// NDRange, read back and verify. Look at: the device table (what your hardware offers), the
// build log of a broken kernel, and what the runtime says when a work-group is too big.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "course.hpp"

namespace {

// Prints `text` line by line, indented by two spaces, each line broken at spaces to fit 80
// columns (the drivers' build logs and the advice on errors are written for wider screens).
void print_fitted(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string out = " ";
    for (std::string word; words >> word; out += " " + word)
      if (out.size() + 1 + word.size() > 80 && out.size() > 1) std::cout << out << "\n", out = "   ";
    std::cout << out << "\n";
  }
}

// Step 1's table: the properties that decide how kernels should be written for a device.
void print_device_details(const cl::Device& device) {
  const auto sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  std::cout << "      type " << course::device_type_name(device.getInfo<CL_DEVICE_TYPE>()) << ", "
            << device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() << " compute units at "
            << device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>() << " MHz\n"
            << "      max work-group size " << device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>()
            << ", max work-item sizes " << sizes[0] << " x " << sizes[1] << " x " << sizes[2] << "\n"
            << "      local memory " << (device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() >> 10) << " KiB, global memory "
            << (device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>() >> 20) << " MiB, largest buffer "
            << (device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>() >> 20) << " MiB\n"
            << "      image support " << (device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() ? "yes" : "no") << ", "
            << device.getInfo<CL_DEVICE_OPENCL_C_VERSION>() << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 0: options. Every lesson takes --device and --help; this one also an image.
    course::Options options("./course run 01", "Every OpenCL host step by hand, on a photographic negative.");
    course::add_image_options(options, "01_platform_setup");
    options.value("local", "WxH", "work-group size to launch with", "16x16");
    options.flag("quiet", "describe only the chosen device, not every device");
    options.example("./course run 01", "run on the default device");
    options.example("./course run 01 --device cpu --local 8x8", "choose the CPU device and 8x8 work-groups");
    options.parse(argc, argv);
    const int repeat = options.integer("repeat", 1, 1000);
    const auto [local_x, local_y] = options.size("local", 1 << 16);

    // Step 1: platforms and their devices. A platform is one vendor's driver (PoCL, NVIDIA, ...);
    // each offers one or more devices.
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    if (!options.given("quiet")) {
      std::cout << "Step 1: " << platforms.size() << " OpenCL platform(s)\n";
      for (const auto& platform : platforms) {
        std::vector<cl::Device> devices;
        platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        const std::string line = "  platform: " + platform.getInfo<CL_PLATFORM_NAME>() + " (" +
                                 platform.getInfo<CL_PLATFORM_VERSION>() + ")";
        std::cout << (line.size() > 80 ? course::wrap(line, 80, "  ", "    ") : line + "\n");
        for (const auto& device : devices) {
          std::cout << "    device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";
          print_device_details(device);
        }
      }
    }
    // Every lesson picks its device by the same --device rule, so we use the helper here.
    const course::DeviceEntry chosen = course::select_device(options.text("device"));
    const cl::Device device = chosen.device;
    std::cout << "\nChosen device [" << chosen.index << "]: " << course::describe(chosen) << "\n";
    if (options.given("quiet")) print_device_details(device);

    // Step 2: a context (owner of buffers and programs) and a command queue (the device's to-do
    // list). Profiling makes every command record when it started and ended on the device.
    cl::Context context(device);
    cl::CommandQueue queue(context, device, cl::QueueProperties::Profiling);

    // Step 3: the program, compiled at run time for this very device from the .cl file.
    const auto kernel_path = course::locate_course_file("kernels/01_platform_setup/invert.cl");
    // (Some compilers also print a summary line, "1 error generated.", straight to the terminal:
    // course::catch_compiler_output keeps it, so that it shows after the log it belongs to.)
    cl::Program program(context, course::read_text_file(kernel_path));
    std::string compiler_said;
    try {
      course::catch_compiler_output(compiler_said, [&] { program.build(std::vector<cl::Device>{device}); });
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log;
      std::cerr << compiler_said;
      throw;
    }
    std::cerr << compiler_said;  // its warnings, if it printed any
    cl::Kernel invert(program, "invert");
    std::string simd_source;
    const int simd = course::simd_width(device, &invert, &simd_source);
    std::cout << "Step 3: built " << kernel_path.filename().string() << "; SIMD width " << simd << "\n        (from "
              << simd_source << ")\n";

    // Step 4: the input image and the buffers on the device.
    const course::GrayImage image = course::input_gray(options);
    const int width = image.width, height = image.height;
    const std::size_t bytes = image.pixels.size() * sizeof(float);
    cl::Buffer input(context, CL_MEM_READ_ONLY, bytes);
    cl::Buffer output(context, CL_MEM_WRITE_ONLY, bytes);
    cl::Event upload;
    queue.enqueueWriteBuffer(input, CL_FALSE, 0, bytes, image.pixels.data(), nullptr, &upload);

    // Step 5: kernel arguments, in the order of the kernel's parameters.
    invert.setArg(0, input);
    invert.setArg(1, output);
    invert.setArg(2, width);
    invert.setArg(3, height);

    // Step 6: the NDRange. The global size is rounded up to whole work-groups; the kernel's
    // bounds check turns away the work-items that fall outside the image.
    const cl::NDRange local(local_x, local_y);
    const cl::NDRange global(course::round_up(width, local_x), course::round_up(height, local_y));
    std::cout << "Step 6: image " << width << "x" << height << ", global " << global[0] << "x" << global[1]
              << ", local " << local_x << "x" << local_y << " (" << (global[0] / local_x) * (global[1] / local_y)
              << " work-groups)\n";
    std::vector<double> kernel_ms;
    for (int run = 0; run <= repeat; ++run) {  // run 0 is the warm-up
      cl::Event done;
      queue.enqueueNDRangeKernel(invert, cl::NullRange, global, local, nullptr, &done);
      done.wait();
      if (run > 0) kernel_ms.push_back(course::event_ms(done));
    }

    // Step 7: read the result back (blocking) and verify it against the CPU.
    course::GrayImage result{width, height, std::vector<float>(image.pixels.size())};
    cl::Event download;
    queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, result.pixels.data(), nullptr, &download);
    std::vector<float> expected(image.pixels.size());
    std::transform(image.pixels.begin(), image.pixels.end(), expected.begin(), [](float v) { return 255.0f - v; });
    const course::Comparison check = course::compare_images(result.pixels, expected, width, height, 0.0);
    std::cout << "Step 7: kernel " << course::median(kernel_ms) << " ms (median of " << repeat << "),\n        upload "
              << course::event_ms(upload) << " ms, download " << course::event_ms(download) << " ms\n"
              << "        verified against the CPU: " << check.describe() << "\n";
    const auto saved = course::output_path(options, "inverted.png");
    course::save_png(saved, result);
    std::cout << "        wrote " << course::shown_path(saved) << "\n";

    // Step 8: what a compile error looks like. The compiler's log names the line and column.
    std::cout << "\nStep 8: building a kernel with a missing semicolon, to see a build log:\n";
    cl::Program broken(context,
                       "#line 1 \"broken.cl\"\n__kernel void broken(__global float* data) {\n  data[0] = 1.0f\n}\n");
    try {
      compiler_said.clear();
      course::catch_compiler_output(compiler_said, [&] { broken.build(std::vector<cl::Device>{device}); });
      std::cout << "  (this compiler accepted it)\n";
    } catch (const cl::BuildError& e) {
      std::cout << "  " << course::cl_error_name(e.err()) << ", and the log says:\n";
      for (const auto& [dev, log] : e.getBuildLog()) print_fitted(log);
      print_fitted(compiler_said);
    }

    // Step 9: what CL_INVALID_WORK_GROUP_SIZE means: asking for more work-items per group than
    // the device allows. (A kernel may allow fewer still: CL_KERNEL_WORK_GROUP_SIZE.)
    const std::size_t kernel_max = invert.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
    const std::size_t device_max = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    const std::size_t too_wide = std::min<std::size_t>(device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>()[0], device_max);
    const std::size_t too_tall = device_max / too_wide + 1;
    std::cout << "\nStep 9: work-groups may hold " << device_max
              << " work-items on this device (this kernel: " << kernel_max << ");\n        launching " << too_wide << "x"
              << too_tall << " = " << too_wide * too_tall << ":\n";
    try {
      queue.enqueueNDRangeKernel(invert, cl::NullRange, cl::NDRange(too_wide, too_tall),
                                 cl::NDRange(too_wide, too_tall));
      queue.finish();
      std::cout << "  the device accepted it.\n";
    } catch (const cl::Error& e) {
      std::cout << "  " << e.what() << " returned " << course::cl_error_name(e.err()) << ":\n";
      print_fitted(course::cl_error_advice(e.err()));
    }

    return check.ok() ? course::kExitOk : course::kExitVerificationFailed;
  } catch (const cl::BuildError& e) {
    std::cerr << "The kernel did not compile; its build log is above.\n";
    return course::kExitOpenCL;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}

#include "run_record.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "device.hpp"
#include "input_error.hpp"

namespace course {
namespace {

// The fields of one object of the record, each read as the kind the record writes it.
struct Fields {
  const JsonValue& object;
  std::string where;  // "row 3 of table 1", for the messages

  const JsonValue* get(const std::string& name, JsonValue::Kind kind, bool required) const {
    const JsonValue* v = object.find(name);
    if ((!v || v->kind == JsonValue::Kind::null) && !required) return nullptr;
    if (!v || v->kind != kind)
      throw RecordFormatError(where + " has no " + name + (v ? " of the right kind" : ""));
    return v;
  }
  // A number; `absent` where the record may leave it out or write null (an older record's field).
  double number(const std::string& name, double absent = NAN) const {
    const JsonValue* v = get(name, JsonValue::Kind::number, std::isnan(absent));
    return v ? v->number : absent;
  }
  std::string text(const std::string& name) const { return get(name, JsonValue::Kind::string, true)->string; }
};

CopyYardstick copy_from(const Fields& f, const std::string& prefix, const std::string& gbps) {
  CopyYardstick c;
  c.gbps = f.number(gbps, 0);
  c.median_gbps = f.number(prefix + "median_gbps", 0);
  c.slowest_gbps = f.number(prefix + "slowest_gbps", 0);
  c.runs = static_cast<int>(f.number(prefix + "runs", 0));
  c.buffer_bytes = f.number(prefix == "copy_" ? "copy_bytes" : "buffer_bytes", 0);
  c.ms = f.number(prefix == "copy_" ? "copy_ms" : "ms", 0);
  c.group = static_cast<int>(f.number(prefix + "group", 0));
  return c;
}

PixelType pixels_named(const std::string& label) {
  for (const PixelType p : {PixelType::f32, PixelType::u8, PixelType::f16})
    if (label == copy_label(p)) return p;
  throw RecordFormatError("no pixels are called '" + label + "' (float, 8-bit or half)");
}

}  // namespace

RecordedTable read_recorded_table(const std::filesystem::path& path, int number) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || std::filesystem::is_directory(path))
    throw InputError("cannot read the recorded run '" + path.string() + "' (no such file, or a folder?)");
  const std::string name = path.string();
  try {
    JsonValue run;
    try {
      run = parse_json(text.str());
    } catch (const JsonError& e) {
      throw RecordFormatError(e.what());
    }
    const Fields top{run, "the record"};
    if (run.kind != JsonValue::Kind::object || top.number("format", 0) != 1)
      throw RecordFormatError("it is not a run of format 1, as a lesson's --record FILE writes it");
    const auto& tables = top.get("tables", JsonValue::Kind::array, true)->items;
    if (number < 1 || number > static_cast<int>(tables.size()))
      throw MissingTableError(name + " holds " + std::to_string(tables.size()) + " table(s), not a table #" +
                              std::to_string(number));
    const std::string which = "table " + std::to_string(number);
    const Fields table{tables[number - 1], which};
    RecordedTable out;
    out.title = table.text("title");
    if (const JsonValue* d = top.get("device", JsonValue::Kind::object, false)) {
      const Fields device{*d, "the record's device"};
      DeviceEntry entry;
      entry.device_name = device.text("name"), entry.platform_name = device.text("platform");
      const std::string type = device.text("type");
      entry.type = type == "GPU" ? CL_DEVICE_TYPE_GPU : type == "CPU" ? CL_DEVICE_TYPE_CPU
                   : type == "accelerator"            ? CL_DEVICE_TYPE_ACCELERATOR
                                                      : 0;
      out.device = describe(entry), out.device_name = entry.device_name;
    }
    // The roofline: the table's own, else the run's (an older record keeps only the run's).
    const JsonValue* roof = table.get("roofline", JsonValue::Kind::object, false);
    if (!roof || roof->members.empty()) roof = top.get("roofline", JsonValue::Kind::object, false);
    if (roof) {
      const Fields r{*roof, which + "'s roofline"};
      out.roof.copy = copy_from(r, "copy_", "copy_gbps");
      out.roof.gflops = r.number("fma_gflops", 0);
      out.roof.local_gloads = r.number("local_float_gloads", 0);
      out.roof.local4_gloads = r.number("local_float4_gloads", 0);
      out.roof.cache_bytes = r.number("cache_bytes", 0);
      out.roof.reported_cache_bytes = r.number("reported_cache_bytes", 0);
      out.roof.timer_ns = r.number("timer_ns", 0);
    }
    // The copies of 8-bit and half pixels the table's rows divided by, as they were measured.
    std::map<PixelType, CopyYardstick> copies;
    if (const JsonValue* list = table.get("copies", JsonValue::Kind::array, false))
      for (const JsonValue& c : list->items) {
        const Fields f{c, which + "'s copies"};
        copies[pixels_named(f.text("pixels"))] = copy_from(f, "", "gbps");
      }
    out.roof.measure_narrow_copy = [copies](PixelType pixels) {
      return copies.count(pixels) ? copies.at(pixels) : CopyYardstick{};
    };
    const auto& rows = table.get("rows", JsonValue::Kind::array, true)->items;
    if (rows.empty()) throw MissingTableError(name + ": " + which + " has no rows");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Fields f{rows[i], "row " + std::to_string(i + 1) + " of " + which};
      ResultRow row;
      row.variant = f.text("variant");
      row.kernel_ms = f.number("kernel_ms", 0);  // null: a sweep's row of no single time
      row.min_ms = f.number("min_ms", 0), row.max_ms = f.number("max_ms", 0);
      row.runs = static_cast<int>(f.number("runs", 0));
      row.end_to_end_ms = f.number("end_to_end_ms", -1), row.wall_ms = f.number("wall_ms", -1);
      row.bytes = f.number("bytes", 0), row.flops = f.number("flops", 0), row.pixels = f.number("pixels", 0);
      row.max_error = f.number("max_error", 0);
      row.verified = f.get("verified", JsonValue::Kind::boolean, true)->boolean;
      row.local_loads = f.number("local_loads", 0);
      row.local_load_bytes = static_cast<int>(f.number("local_load_bytes", 4));
      // A row divided by no copy (null) or recorded before rows named theirs: the float copy's.
      if (const JsonValue* copy = f.get("copy", JsonValue::Kind::string, false)) row.copy = pixels_named(copy->string);
      out.rows.push_back(row);
      out.marks.push_back(f.get("marks", JsonValue::Kind::string, false) ? f.text("marks") : "");
    }
    return out;
  } catch (const RecordFormatError& e) {
    throw RecordFormatError(name + ": " + e.what());
  }
}

}  // namespace course

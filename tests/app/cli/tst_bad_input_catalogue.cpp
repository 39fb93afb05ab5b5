// The bad-input catalogue: broken and hostile files given to clumplab-cli as a user would,
// each expected to end with a clear message naming the file and the field or line, exit code 2 (or
// a clean run where the input is only odd), within bounded time and memory. Trajectory files, which
// only the app reads, go through the core reader the app uses. Every row writes its files into a
// fresh folder; the child's peak memory comes from wait4's rusage.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "TestPaths.hpp"
#include "core/base/Errors.hpp"
#include "core/io/Trajectory.hpp"

namespace {

using Files = std::map<std::string, std::function<void(const std::string& path)>>;

struct Outcome {
  int exitCode = -1;
  std::string stderrText;
  double seconds = 0.0;
  long peakKiB = 0;
};

std::function<void(const std::string&)> text(std::string content) {
  return [content](const std::string& path) { std::ofstream(path, std::ios::binary) << content; };
}

// clumplab-cli ARGS in `folder`, stderr captured, peak resident memory from the kernel.
Outcome runCli(const QString& folder, const std::vector<std::string>& args) {
  const std::string errPath = (folder + "/stderr.txt").toStdString();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(folder.toLocal8Bit().constData()) != 0) ::_exit(120);
    const int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (err < 0 || null < 0) ::_exit(121);
    ::dup2(err, 2);
    ::dup2(null, 1);
    ::alarm(120);  // a hang ends the child (SIGALRM), and the row fails
    std::vector<char*> argv;
    std::string cli = CLUMPLAB_CLI;
    argv.push_back(cli.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(cli.c_str(), argv.data());
    ::_exit(122);
  }
  Outcome o;
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.peakKiB = usage.ru_maxrss;
  QFile err(QString::fromStdString(errPath));
  if (err.open(QIODevice::ReadOnly)) o.stderrText = err.readAll().toStdString();
  return o;
}

// ---- meshes ---------------------------------------------------------------------------------------
using Tri = std::array<std::array<std::string, 3>, 3>;

std::string asciiStl(const std::vector<Tri>& tris) {
  std::string s = "solid x\n";
  for (const Tri& t : tris) {
    s += " facet normal 0 0 0\n  outer loop\n";
    for (const auto& v : t) s += "   vertex " + v[0] + " " + v[1] + " " + v[2] + "\n";
    s += "  endloop\n endfacet\n";
  }
  return s + "endsolid x\n";
}

// The unit cube's 12 triangles, outward; `drop` leaves out the last ones, `inward` turns them over.
std::vector<Tri> cube(const std::string& one = "1", std::size_t drop = 0, bool inward = false) {
  const std::array<std::array<int, 3>, 8> v = {
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};
  const std::array<std::array<int, 3>, 12> f = {{{0, 2, 1},
                                                 {0, 3, 2},
                                                 {4, 5, 6},
                                                 {4, 6, 7},
                                                 {0, 1, 5},
                                                 {0, 5, 4},
                                                 {1, 2, 6},
                                                 {1, 6, 5},
                                                 {2, 3, 7},
                                                 {2, 7, 6},
                                                 {3, 0, 4},
                                                 {3, 4, 7}}};
  std::vector<Tri> tris;
  for (std::size_t k = 0; k + drop < f.size(); ++k) {
    Tri t;
    for (int c = 0; c < 3; ++c) {
      const int corner = f[k][static_cast<std::size_t>(inward && c > 0 ? 3 - c : c)];
      for (int a = 0; a < 3; ++a) t[c][a] = v[corner][a] ? one : "0";
    }
    tris.push_back(t);
  }
  return tris;
}

// A binary STL whose header announces `count` triangles of zeros, as a sparse file.
std::function<void(const std::string&)> zeroBinaryStl(std::uint32_t count, std::size_t bytesWritten = 0) {
  return [count, bytesWritten](const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    char header[84] = {};
    std::memcpy(header + 80, &count, 4);
    out.write(header, 84);
    out.close();
    const std::size_t size = bytesWritten > 0 ? bytesWritten : 84 + 50ull * count;
    if (::truncate(path.c_str(), static_cast<off_t>(size)) != 0) qFatal("cannot size %s", path.c_str());
  };
}

// ---- scenes ---------------------------------------------------------------------------------------
// A valid small scene with `edit` spliced in by text replacement of one of its parts.
std::string scene(const std::string& from = "", const std::string& to = "") {
  std::string s = R"({"format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, -9.81],
  "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
  "walls": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}],
  "templates": {"t": {"density": 2500, "inertia": "pebbles", "pebbles": [[0, 0, 0, 0.001], [0, 0, 0.001, 0.001]]}},
  "bodies": [{"template": "t", "position": [0, 0, 0.01]}]})";
  if (!from.empty()) {
    const auto at = s.find(from);
    if (at == std::string::npos) qFatal("scene edit: \"%s\" not found", from.c_str());
    s.replace(at, from.size(), to);
  }
  return s;
}

const std::vector<std::string> kRun = {"run", "s.json", "--steps", "2"};

}  // namespace

Q_DECLARE_METATYPE(Files)
Q_DECLARE_METATYPE(std::vector<std::string>)

class BadInputCatalogue : public QObject {
  Q_OBJECT
 private slots:
  void cli_data() {
    QTest::addColumn<Files>("files");
    QTest::addColumn<std::vector<std::string>>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("expected");  // each must appear in stderr
    auto row = [](const char* name, Files files, std::vector<std::string> args, int code,
                  QStringList expected) { QTest::newRow(name) << files << args << code << expected; };
    const std::vector<std::string> inertia = {"inertia", "m.stl"};
    // Meshes: broken and hostile.
    std::vector<Tri> nan = cube();
    nan[0][1][0] = "nan";
    row("mesh: NaN vertex", {{"m.stl", text(asciiStl(nan))}}, inertia, 2,
        {"m.stl: line 5", "not a finite number (nan)"});
    row("mesh: 1e308 coordinates", {{"m.stl", text(asciiStl(cube("1e308")))}}, inertia, 2,
        {"m.stl: line", "(1e308) is beyond the 32-bit floats"});
    row("mesh: 10^7 degenerate triangles", {{"m.stl", zeroBinaryStl(10'000'000)}}, inertia, 2,
        {"m.stl: every triangle is degenerate (zero area): all 10000000 of them"});
    // Open and non-manifold surfaces bound the solid of their generalized winding number (issue 37).
    row("mesh: open (the winding number's solid, with warnings)", {{"m.stl", text(asciiStl(cube("1", 1)))}},
        inertia, 0,
        {"m.stl: warning: the mesh is open: 3 boundary edges",
         "m.stl: warning: mass properties from the solid its generalized winding number encloses"});
    row("mesh: a single triangle bounds no solid", {{"m.stl", text(asciiStl({cube()[0]}))}}, inertia, 2,
        {"m.stl: bounds no solid: its generalized winding number never reaches 1/2"});
    row("mesh: inverted (turned over, with a warning)", {{"m.stl", text(asciiStl(cube("1", 0, true)))}},
        inertia, 0, {"m.stl: warning: 1 shell was inside out (negative volume) and was turned over"});
    row("mesh: empty file", {{"m.stl", text("")}}, inertia, 2, {"m.stl: the file is empty"});
    row("mesh: binary garbage", {{"m.stl", text(std::string(450, '\x7f'))}}, inertia, 2,
        {"m.stl: truncated or corrupt binary STL"});
    row("mesh: truncated binary", {{"m.stl", zeroBinaryStl(100, 584)}}, inertia, 2,
        {"m.stl: truncated or corrupt binary STL: its header announces 100 triangles (5084 bytes) but the "
         "file "
         "has 584 bytes"});
    std::vector<Tri> fin = cube();
    fin.push_back({{{"0", "0", "0"}, {"1", "0", "0"}, {"0.5", "-1", "0.5"}}});
    row("mesh: non-manifold (the winding number's solid, with warnings)", {{"m.stl", text(asciiStl(fin))}},
        inertia, 0, {"m.stl: warning: 1 edge is shared by more than two triangles (non-manifold)"});
    row("mesh: missing file", {}, inertia, 2, {"m.stl: no such file"});
    row("mesh: truncated ASCII", {{"m.stl", text(asciiStl(cube()).substr(0, 300))}}, inertia, 2,
        {"m.stl: truncated ASCII STL"});
    row("mesh: triangles beyond the limit", {{"m.stl", zeroBinaryStl(2000)}},
        {"inertia", "m.stl", "--max-triangles", "1000"}, 2,
        {"m.stl: 2000 triangles exceed the limit of 1000 (raise it with --max-triangles N"});
    row("fill: spacing far too fine", {{"m.stl", text(asciiStl(cube()))}},
        {"fill", "m.stl", "--spacing", "1e-5"}, 2,
        {"m.stl: a spacing of 1e-05 m gives 1e+15 grid points", "--max-fill-points"});
    // Scenes: wrong types, negative sizes, huge counts, missing or cyclic references, absurd steps.
    row("scene: not JSON", {{"s.json", text(R"({"format": "clumplab-scene/1", "time_step": })")}}, kRun, 2,
        {"s.json: line 1, column 45: not valid JSON"});
    row("scene: wrong type", {{"s.json", text(scene("1e-5,", "\"fast\","))}}, kRun, 2,
        {"s.json: time_step: expected a number, got string"});
    row("scene: negative time step", {{"s.json", text(scene("1e-5,", "-1e-5,"))}}, kRun, 2,
        {"s.json: time_step: must lie in [1e-15, 100] s (got -1e-05)"});
    row("scene: absurdly small time step", {{"s.json", text(scene("1e-5,", "1e-30,"))}}, kRun, 2,
        {"s.json: time_step: must lie in [1e-15, 100] s (got 1e-30)"});
    row("scene: absurdly large time step", {{"s.json", text(scene("1e-5,", "1e3,"))}}, kRun, 2,
        {"s.json: time_step: must lie in [1e-15, 100] s (got 1000)"});
    row("scene: too large a step for the stiffness (diverges, explained)",
        {{"s.json", text(scene("1e-5,", "10,"))}}, kRun, 3,
        {"s.json: simulation diverged", "the critical step is about 5.97e-05 s"});
    row("scene: number beyond double", {{"s.json", text(scene("1e-5,", "1e400,"))}}, kRun, 2,
        {"s.json: not valid JSON: number overflow parsing '1e400'"});
    row("scene: misspelt key", {{"s.json", text(scene("\"gravity\"", "\"gravty\""))}}, kRun, 2,
        {"s.json: gravty: unknown key \"gravty\""});
    row("scene: missing template",
        {{"s.json", text(scene("{\"template\": \"t\"", "{\"template\": \"nope\""))}}, kRun, 2,
        {"s.json: bodies[0].template: unknown template \"nope\""});
    row("scene: negative radius", {{"s.json", text(scene("[0, 0, 0, 0.001]", "[0, 0, 0, -0.001]"))}}, kRun, 2,
        {"s.json: templates.t.pebbles[0][3]: must be positive (got -0.001)"});
    row("scene: negative density", {{"s.json", text(scene("2500", "-2500"))}}, kRun, 2,
        {"s.json: templates.t.density: must be positive"});
    auto withGenerate = [](const std::string& entry) {
      std::string s = scene();
      s.insert(s.rfind('}'), ", \"generate\": [" + entry + "]");
      return s;
    };
    auto withCount = [&](const std::string& count) {
      return withGenerate(R"({"template": "t", "count": )" + count +
                          R"(, "region": {"min": [0, 0, 0.01], "max": [1, 1, 1]}})");
    };
    row("scene: negative count", {{"s.json", text(withCount("-5"))}}, kRun, 2,
        {"s.json: generate[0].count: count must not be negative"});
    row("scene: huge count", {{"s.json", text(withCount("1000000000000"))}}, kRun, 2,
        {"s.json: generate[0].count: the scene would hold 2000000000002 pebbles, more than the limit",
         "--max-pebbles"});
    row("scene: inverted region",
        {{"s.json",
          text(withGenerate(
              R"({"template": "t", "count": 5, "region": {"min": [1, 1, 1], "max": [0, 0, 0]}})"))}},
        kRun, 2, {"s.json: generate[0].region.max: every component of max must be >= min"});
    row("scene: no format", {{"s.json", text(scene("\"format\": \"clumplab-scene/1\", ", ""))}}, kRun, 2,
        {"s.json: format: missing required field"});
    row("scene: future format", {{"s.json", text(scene("clumplab-scene/1", "clumplab-scene/9"))}}, kRun, 2,
        {"s.json: format: expected \"clumplab-scene/1\", got \"clumplab-scene/9\""});
    row("scene: zero quaternion",
        {{"s.json", text(scene("0.01]}", "0.01], \"orientation\": [0, 0, 0, 0]}"))}}, kRun, 2,
        {"s.json: bodies[0].orientation: a zero quaternion is not a rotation"});
    row("scene: template without pebbles",
        {{"s.json", text(scene("[[0, 0, 0, 0.001], [0, 0, 0.001, 0.001]]", "[]"))}}, kRun, 2,
        {"s.json: templates.t.pebbles: a clump needs at least one pebble"});
    const std::string meshTemplate = R"("m": {"mesh": "MESH", "density": 1000, "inertia": "mesh",
        "fill": {"spacing": 0.1}}, "t": )";
    auto withMesh = [&](const std::string& mesh) {
      std::string m = meshTemplate;
      m.replace(m.find("MESH"), 4, mesh);
      return scene("\"t\": ", m);
    };
    row("scene: missing mesh", {{"s.json", text(withMesh("gone.stl"))}}, kRun, 2,
        {"s.json: templates.m.mesh: gone.stl: no such file"});
    row("scene: broken mesh",
        {{"s.json", text(withMesh("flat.stl"))}, {"flat.stl", text(asciiStl({cube()[0], cube()[1]}))}}, kRun,
        2, {"s.json: templates.m.mesh: flat.stl: bounds no solid"});
    row("scene: cyclic reference (its own file as mesh)", {{"s.json", text(withMesh("s.json"))}}, kRun, 2,
        {"s.json: templates.m.mesh: s.json: cannot be read as a mesh"});
    row("scene: restitution above 1",
        {{"s.json", text(scene("\"restitution\": 0.5", "\"restitution\": 1.5"))}}, kRun, 2,
        {"s.json: contact.restitution: must lie in [0, 1] (got"});
    row("scene: NaN as a string",
        {{"s.json", text(scene("0.01]}", "0.01], \"velocity\": [\"nan\", 0, 0]}"))}}, kRun, 2,
        {"s.json: bodies[0].velocity[0]: expected a number, got string"});
    row("scene: bodies as an object",
        {{"s.json", text(scene("[{\"template\": \"t\", \"position\": [0, 0, 0.01]}]", "{\"a\": 1}"))}}, kRun,
        2, {"s.json: bodies: expected an array, got object"});
    row("scene: nested a million deep",
        {{"s.json", text("{\"format\": \"clumplab-scene/1\", \"x\": " + std::string(1'000'000, '[') +
                         std::string(1'000'000, ']') + "}")}},
        kRun, 2, {"s.json: x: unknown key \"x\""});
    row("scene: overlapping bodies",
        {{"s.json", text(scene("0.01]}]", "0.01]}, {\"template\": \"t\", \"position\": [0, 0, 0.0105]}]"))}},
        kRun, 2, {"s.json: bodies[0]: overlaps bodies[1] by 150% of a pebble radius at the start"});
    row("scene: body inside a wall", {{"s.json", text(scene("0.01]}", "-0.5]}"))}}, kRun, 2,
        {"s.json: bodies[0]: reaches 501 pebble radii into walls[0] at the start"});
    row("scene: position 1e308", {{"s.json", text(scene("[0, 0, 0.01]", "[1e308, 0, 0.01]"))}}, kRun, 2,
        {"s.json: bodies[0].position: a coordinate beyond 1e9 m"});
    row("scene: zero wall normal",
        {{"s.json", text(scene("\"normal\": [0, 0, 1]", "\"normal\": [0, 0, 0]"))}}, kRun, 2,
        {"s.json: walls[0].normal: the normal must not be zero"});
    row("scene: beyond the memory limit", {{"s.json", text(withCount("2000000"))}},
        {"run", "s.json", "--steps", "2", "--max-memory-mb", "100"}, 2,
        {"s.json: generate[0].count: the scene would need about", "--max-memory-mb"});
    row("template file: negative density",
        {{"t.json", text(R"({"format": "clumplab-template/1", "name": "x", "density": -3, "pebbles": []})")}},
        {"inertia", "t.json"}, 2, {"t.json: density: must be positive (got -3)"});
  }

  void cli() {
    QFETCH(Files, files);
    QFETCH(std::vector<std::string>, args);
    QFETCH(int, exitCode);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const auto& [name, write] : files) write((dir.path() + "/").toStdString() + name);
    const Outcome o = runCli(dir.path(), args);
    const QString err = QString::fromStdString(o.stderrText).trimmed();
    qInfo("exit %d, %.2f s, %ld MiB: %s", o.exitCode, o.seconds, o.peakKiB / 1024, qPrintable(err.left(200)));
    QVERIFY2(o.exitCode == exitCode,
             qPrintable(QString("exit %1, expected %2").arg(o.exitCode).arg(exitCode)));
    for (const QString& e : expected)
      QVERIFY2(err.contains(e), qPrintable("expected \"" + e + "\" in: " + err));
    if (exitCode == 2) {  // one clear line
      QVERIFY2(!err.contains('\n'), qPrintable(err));
    }
    // Bounded: these are hostile inputs, not benchmarks; the bounds are an order above what they take.
    QVERIFY2(o.peakKiB < 400 * 1024, qPrintable(QString("peak memory %1 MiB").arg(o.peakKiB / 1024)));
    QVERIFY2(o.seconds < 30.0, qPrintable(QString("%1 s").arg(o.seconds)));
  }

  // Replay files: what the app's reader says of damaged ones.
  void trajectories_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const QByteArray magic("CLTRAJ1\n", 8);
    auto u32 = [](std::uint32_t v) { return QByteArray(reinterpret_cast<const char*>(&v), 4); };
    auto u64 = [](std::uint64_t v) { return QByteArray(reinterpret_cast<const char*>(&v), 8); };
    auto f64 = [](double v) { return QByteArray(reinterpret_cast<const char*>(&v), 8); };
    const QByteArray head = magic + u64(2) + "{}" + u32(1) + u32(1) + "t";
    QTest::newRow("not a trajectory") << QByteArray("hello") << "not a ClumpLab trajectory";
    QTest::newRow("empty") << QByteArray() << "the file is empty";
    QTest::newRow("cut inside the header") << magic.left(5) << "the file ends inside the header";
    QTest::newRow("truncated scene") << (magic + u64(1000) + "{}")
                                     << "the file ends inside the embedded scene";
    QTest::newRow("huge scene claim") << (magic + u64(1ull << 40)) << "the embedded scene claims";
    QTest::newRow("bad frame marker") << (head + "XXXX") << "expected a frame marker (FRM1)";
    QTest::newRow("frame claims 1e8 bodies")
        << (head + u32(0x314D5246) + f64(0.0) + u64(0) + u32(100'000'000))
        << "a frame claims 100000000 bodies";
    QByteArray body = u32(0);
    for (int k = 0; k < 13; ++k) body += f64(k == 3 ? 1.0 : 0.0);
    const QByteArray frame = u32(0x314D5246) + f64(0.0) + u64(0) + u32(1);
    QTest::newRow("unknown template") << (head + frame + u32(7) + body.mid(4)) << "names a template the file";
    QByteArray nanBody = body;
    const double nanValue = std::numeric_limits<double>::quiet_NaN();
    nanBody.replace(4, 8, f64(nanValue));
    QTest::newRow("NaN position") << (head + frame + nanBody) << "holds a NaN or an infinity";
    QByteArray zeroQ = body;
    zeroQ.replace(4 + 3 * 8, 8, f64(0.0));
    QTest::newRow("zero quaternion") << (head + frame + zeroQ) << "is not a unit quaternion";
    QTest::newRow("cut inside a body") << (head + frame + body.left(20)) << "truncated";
  }

  void trajectories() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    try {
      (void)clumplab::parseTrajectory(bytes.toStdString(), "run.cltraj");
      QFAIL("a damaged trajectory was read");
    } catch (const clumplab::InputError& e) {
      const QString what = e.what();
      QVERIFY2(what.startsWith("run.cltraj: ") && what.contains(expected), qPrintable(what));
    }
  }
};

QTEST_GUILESS_MAIN(BadInputCatalogue)
#include "tst_bad_input_catalogue.moc"

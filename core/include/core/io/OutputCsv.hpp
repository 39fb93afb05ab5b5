#pragma once
// Energy and state CSV files with the exact headers of docs/formats.md. With periodic boundaries the
// state CSV's x, y, z are wrapped into the primary box (as World keeps them), while pe_gravity,
// pe_fields and lx, ly, lz of the energy CSV follow each body's continuous path (World::energy).
#include <fstream>
#include <string>

#include "core/io/AtomicOutputFile.hpp"

#include "core/energy/Energy.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

class World;

// Columns the energy CSV adds after those of docs/formats.md for scenes that use the PaLa features
// (fields or point properties, the 2D plane, a membrane): `pe_fields` [J] (counted in `total`) and
// per wall w of WorldModel::walls its impulse `jx_w,jy_w,jz_w` [N s] (WorldState::wallImpulse). Other
// scenes keep the contract's header exactly. Scenes with a moving mesh wall append `wall_work` [J]
// last (EnergyLedger::wallWork: total + dissipated - wall_work is conserved).
struct EnergyCsvExtras {
  bool enabled = false;
  std::size_t walls = 0;
  bool wallWork = false;

  static EnergyCsvExtras forScene(const WorldSettings& settings, const std::vector<Wall>& walls,
                                  bool anyPointProperties);
};

class EnergyCsvWriter {
 public:
  // Throws std::runtime_error if unwritable.
  explicit EnergyCsvWriter(const std::string& path, EnergyCsvExtras extras = {});
  void write(const EnergyReport& e, const std::vector<Vec3>& wallImpulses = {});
  static const char* header();

 private:
  AtomicOutputFile file_;  // renamed into place when the writer is destroyed
  std::ofstream& out_;
  EnergyCsvExtras extras_;
};

class StateCsvWriter {
 public:
  explicit StateCsvWriter(const std::string& path);
  void write(double time, const BodyState& bodies);
  static const char* header();

 private:
  AtomicOutputFile file_;
  std::ofstream& out_;
};

}  // namespace clumplab

#pragma once
// Energy and state CSV files with the exact headers of INTERFACES.md.
#include <fstream>
#include <string>

#include "core/Energy.hpp"
#include "core/World.hpp"

namespace clumplab {

class EnergyCsvWriter {
 public:
  explicit EnergyCsvWriter(const std::string& path);  // throws std::runtime_error if unwritable
  void write(const EnergyReport& e);
  static const char* header();

 private:
  std::ofstream out_;
};

class StateCsvWriter {
 public:
  explicit StateCsvWriter(const std::string& path);
  void write(double time, const BodyState& bodies);
  static const char* header();

 private:
  std::ofstream out_;
};

}  // namespace clumplab

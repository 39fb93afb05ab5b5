#include "WorldValidation.hpp"

#include "core/model/ModelParameters.hpp"

#include <cmath>
#include <stdexcept>

namespace clumplab {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

void checkParameter(std::string_view key, double value) {
  const ModelParameter& p = modelParameter(key);
  require(p.range.contains(value), p.complaint(value));
}

void checkFields(const FieldSettings& f) {
  require(f.electric.allFinite() && f.magnetic.allFinite(), "electric and magnetic fields must be finite");
  checkParameter("gravitation.G", f.gravitationalConstant);
  checkParameter("fields.softening", f.softening);
}

void checkModel(const WorldSettings& settings, const ContactModel& contact) {
  validateModelParameters(settings, contact);
  require(settings.gravity.allFinite(), "gravity must be finite");
  checkFields(settings.fields);
}

void checkPointProperties(const PointProperties& p) {
  require(std::isfinite(p.charge) && p.electricDipole.allFinite() && p.magneticDipole.allFinite(),
          "charge and dipoles must be finite");
}

// The automatic softening: a tenth of the smallest pebble radius (centres of mass closer than that
// belong to pebbles overlapping far beyond any contact's range).
double resolveSoftening(double softening, double minPebbleRadius) {
  if (softening > 0.0) return softening;
  return std::isfinite(minPebbleRadius) ? 0.1 * minPebbleRadius : 1e-4;
}
}  // namespace clumplab

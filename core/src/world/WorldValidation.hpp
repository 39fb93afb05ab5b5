#pragma once
// The checks World applies to what it is given (the ranges the scene loader enforces, for values
// set from code such as the GUI's): each throws std::invalid_argument with a message for the user.
#include <string>

#include "core/collision/ContactModel.hpp"
#include "core/forces/Fields.hpp"

namespace clumplab {

void require(bool ok, const std::string& what);
void checkDamping(double linear, double angular);  // [1/s] each
void checkContactModel(const ContactModel& c);
void checkFields(const FieldSettings& f);
void checkPointProperties(const PointProperties& p);
// The field softening in use [m]: the given one, or a tenth of the smallest pebble radius.
double resolveSoftening(double softening, double minPebbleRadius);

}  // namespace clumplab

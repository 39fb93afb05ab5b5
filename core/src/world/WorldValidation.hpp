#pragma once
// The checks World applies to what it is given (the ranges are the model parameters' declared ones,
// core/model/ModelParameters.hpp, which the scene loader reads too): each throws
// std::invalid_argument with a message for the user.
#include <string>
#include <string_view>

#include "core/collision/ContactModel.hpp"
#include "core/forces/Fields.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

void require(bool ok, const std::string& what);
// The model parameter at `key` (ModelParameters.hpp) against its range.
void checkParameter(std::string_view key, double value);
void checkFields(const FieldSettings& f);  // the parameters G and softening, and finite E and B
// What World::setModel and the constructor check of the settings and the contact model on their own:
// every declared range (cim's settings among them), finite gravity and fields.
void checkModel(const WorldSettings& settings, const ContactModel& contact);
void checkPointProperties(const PointProperties& p);
// The field softening in use [m]: the given one, or a tenth of the smallest pebble radius.
double resolveSoftening(double softening, double minPebbleRadius);

}  // namespace clumplab

#pragma once
// Every bounded number of the model a user sets (a scene file's key, a field of the Parameters
// panel, a Python keyword), declared once with its range. The scene loader, World's validation, the
// panel's limits and the Python module all read this table, so what one accepts the others accept.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/ParameterRange.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

struct ModelParameter {
  // The scene file's key path: "time_step", "damping.linear", "gravitation.G", "fields.softening";
  // a contact law's keys after its model's name: "linear.restitution", "hertz-mindlin.poisson".
  std::string_view key;
  std::string_view name;  // in messages: "time step", "restitution"
  std::string_view unit;  // "s", "N/m"; empty for a ratio
  ParameterRange range;
  std::optional<ContactModel::Kind> law;  // the contact law whose parameter it is (none: every law)
  // The field it is: a real number, or (field null) a count.
  double& (*field)(WorldSettings&, ContactModel&) = nullptr;
  int& (*count)(WorldSettings&) = nullptr;

  bool integer() const { return count != nullptr; }
  double value(const WorldSettings& settings, const ContactModel& contact) const;
  void assign(WorldSettings& settings, ContactModel& contact, double value) const;
  // The same in the editable part of a model; the parameter must be one of its fields (not the skin).
  void assign(EditableModel& model, double value) const;

  // "time step must lie in [1e-15, 100] s (got 1e-16)".
  std::string complaint(double value) const;
  // The key within its JSON object: "restitution" for "linear.restitution".
  std::string_view leafKey() const;
};

std::span<const ModelParameter> modelParameters();
// The parameter of a key path; throws std::out_of_range for a key the table does not have.
const ModelParameter& modelParameter(std::string_view key);

// Throws std::invalid_argument with ModelParameter::complaint for the first parameter out of its
// range (a contact law's parameters only under that law).
void validateModelParameters(const WorldSettings& settings, const ContactModel& contact);

}  // namespace clumplab

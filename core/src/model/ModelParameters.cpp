// The model's bounded parameters and their ranges, declared once (ModelParameters.hpp).
#include "core/model/ModelParameters.hpp"

#include <stdexcept>

namespace clumplab {

namespace {

using Kind = ContactModel::Kind;
constexpr ParameterRange kPositive = ParameterRange::positive();
constexpr ParameterRange kNonNegative = ParameterRange::nonNegative();

using Settings = WorldSettings;
using Law = ContactModel;
using Field = double& (*)(Settings&, Law&);

constexpr ModelParameter setting(std::string_view key, std::string_view name, std::string_view unit,
                                 ParameterRange range, Field field) {
  return {key, name, unit, range, std::nullopt, field, nullptr};
}

constexpr ModelParameter count(std::string_view key, std::string_view name, ParameterRange range,
                               int& (*field)(Settings&)) {
  return {key, name, "", range, std::nullopt, nullptr, field};
}

constexpr ModelParameter ofLaw(Kind law, std::string_view key, std::string_view name, std::string_view unit,
                               ParameterRange range, Field field) {
  return {key, name, unit, range, law, field, nullptr};
}

constexpr ParameterRange kUnit = ParameterRange::closed(0.0, 1.0);

constexpr ModelParameter kParameters[] = {
    // Below a femtosecond no run of a clump ends; above 100 s no contact is resolved.
    setting("time_step", "time step", "s", ParameterRange::closed(1e-15, 100.0),
            [](Settings& s, Law&) -> double& { return s.timeStep; }),
    // Fixed-point iterations of the leapfrog's Euler solve (MercuryDPM rigid clumps, §2.6).
    count("euler_iterations", "Euler iterations", ParameterRange::closed(1, 100),
          [](Settings& s) -> int& { return s.eulerIterations; }),
    count("rotor_substeps", "rotor sub-steps", ParameterRange::closed(1, 64),
          [](Settings& s) -> int& { return s.rotorSubsteps; }),
    // The Verlet skin; 0 picks 0.4 times the smallest pebble radius.
    setting("skin", "Verlet skin", "m", kNonNegative, [](Settings& s, Law&) -> double& { return s.skin; }),
    setting("damping.linear", "linear damping", "1/s", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.linearDamping; }),
    setting("damping.angular", "angular damping", "1/s", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.angularDamping; }),
    // Woo's and Yade's non-viscous damping (Cundall): 1 would leave no force that drives a motion.
    setting("damping.local", "local damping", "", ParameterRange{0.0, 1.0, true, false},
            [](Settings& s, Law&) -> double& { return s.localDamping; }),
    setting("gravitation.G", "gravitational constant", "m^3/(kg s^2)", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.fields.gravitationalConstant; }),
    // 0 picks a tenth of the smallest pebble radius.
    setting("fields.softening", "softening length", "m", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.fields.softening; }),
    // The cim and rk4 integrators' settings (Meland et al., Cluster integration method): the neighbour
    // buffer Delta (0 picks 0.6 x the smallest pebble radius), the Runge-Kutta-Fehlberg tolerances and
    // the bounds of its step (the largest double: no maximum). Named by their scene keys, which is where
    // they are set.
    setting("cim.buffer", "cim buffer", "m", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.cim.buffer; }),
    setting("cim.rtol", "cim rtol", "", kPositive,
            [](Settings& s, Law&) -> double& { return s.cim.relativeTolerance; }),
    setting("cim.atol", "cim atol", "", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.cim.absoluteTolerance; }),
    setting("cim.min_step", "cim min_step", "s", kNonNegative,
            [](Settings& s, Law&) -> double& { return s.cim.minStep; }),
    setting("cim.max_step", "cim max_step", "s", kPositive,
            [](Settings& s, Law&) -> double& { return s.cim.maxStep; }),
    ofLaw(Kind::Linear, "linear.stiffness", "contact stiffness", "N/m", kPositive,
          [](Settings&, Law& c) -> double& { return c.linear.stiffness; }),
    ofLaw(Kind::Linear, "linear.restitution", "restitution", "", kUnit,
          [](Settings&, Law& c) -> double& { return c.linear.restitution; }),
    ofLaw(Kind::Linear, "linear.damping", "normal damping", "N s/m", kNonNegative,
          [](Settings&, Law& c) -> double& { return c.linear.damping; }),
    ofLaw(Kind::Linear, "linear.friction", "friction", "", kNonNegative,
          [](Settings&, Law& c) -> double& { return c.linear.friction; }),
    ofLaw(Kind::Linear, "linear.tangential_stiffness_ratio", "tangential stiffness ratio", "", kNonNegative,
          [](Settings&, Law& c) -> double& { return c.linear.tangentialStiffnessRatio; }),
    ofLaw(Kind::Linear, "linear.tangential_damping", "tangential damping", "N s/m", kNonNegative,
          [](Settings&, Law& c) -> double& { return c.linear.tangentialDamping; }),
    ofLaw(Kind::Hertz, "hertz.young", "Young's modulus", "Pa", kPositive,
          [](Settings&, Law& c) -> double& { return c.hertz.young; }),
    // Mutze, Polyspherical grains, eq. 52-57: sigma enters the effective modulus; 0.5 is incompressible.
    ofLaw(Kind::Hertz, "hertz.poisson", "Poisson's ratio", "", ParameterRange::closed(0.0, 0.5),
          [](Settings&, Law& c) -> double& { return c.hertz.poisson; }),
    // Mutze, Polyspherical grains, eq. 56: the square of the normal restitution.
    ofLaw(Kind::Hertz, "hertz.restitution_squared", "restitution squared", "", kUnit,
          [](Settings&, Law& c) -> double& { return c.hertz.restitutionSquared; }),
    ofLaw(Kind::Hertz, "hertz.friction", "friction", "", kNonNegative,
          [](Settings&, Law& c) -> double& { return c.hertz.friction; }),
    ofLaw(Kind::Hertz, "hertz.regularizing_velocity", "regularizing velocity", "m/s", kPositive,
          [](Settings&, Law& c) -> double& { return c.hertz.regularizingVelocity; }),
    ofLaw(Kind::HertzMindlin, "hertz-mindlin.youngs_modulus", "Young's modulus", "Pa", kPositive,
          [](Settings&, Law& c) -> double& { return c.hertzMindlin.youngsModulus; }),
    // Below 0.5: no solid a DEM code models is incompressible (the card's shear modulus would vanish).
    ofLaw(Kind::HertzMindlin, "hertz-mindlin.poisson", "Poisson's ratio", "",
          ParameterRange{0.0, 0.5, true, false},
          [](Settings&, Law& c) -> double& { return c.hertzMindlin.poisson; }),
    ofLaw(Kind::HertzMindlin, "hertz-mindlin.restitution", "restitution", "", kUnit,
          [](Settings&, Law& c) -> double& { return c.hertzMindlin.restitution; }),
    ofLaw(Kind::HertzMindlin, "hertz-mindlin.friction", "friction", "", kNonNegative,
          [](Settings&, Law& c) -> double& { return c.hertzMindlin.friction; }),
};

}  // namespace

double ModelParameter::value(const WorldSettings& settings, const ContactModel& contact) const {
  // Read through the same accessors that write (they do not modify).
  auto& s = const_cast<WorldSettings&>(settings);
  auto& c = const_cast<ContactModel&>(contact);
  return count ? static_cast<double>(count(s)) : field(s, c);
}

void ModelParameter::assign(WorldSettings& settings, ContactModel& contact, double value) const {
  if (count) {
    count(settings) = static_cast<int>(value);
  } else {
    field(settings, contact) = value;
  }
}

void ModelParameter::assign(EditableModel& model, double value) const {
  WorldSettings settings;
  ContactModel contact;
  model.writeTo(settings, contact);
  assign(settings, contact, value);
  model = EditableModel::of(settings, contact);
}

std::string ModelParameter::complaint(double value) const {
  return std::string(name) + " " + range.complaint(value, std::string(unit));
}

std::string_view ModelParameter::leafKey() const {
  const std::size_t dot = key.rfind('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

std::span<const ModelParameter> modelParameters() {
  return kParameters;
}

const ModelParameter& modelParameter(std::string_view key) {
  for (const ModelParameter& p : kParameters)
    if (p.key == key) return p;
  throw std::out_of_range("no model parameter \"" + std::string(key) + "\"");
}

void validateModelParameters(const WorldSettings& settings, const ContactModel& contact) {
  for (const ModelParameter& p : kParameters) {
    if (p.law && *p.law != contact.kind) continue;
    const double value = p.value(settings, contact);
    if (!p.range.contains(value)) throw std::invalid_argument(p.complaint(value));
  }
}

}  // namespace clumplab

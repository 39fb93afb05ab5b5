#include "gui/docks/ParametersDock.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "core/model/ModelParameters.hpp"
#include "gui/widgets/RunSpeeds.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/widgets/WheelSafeWidgets.hpp"

namespace clumplab::gui {

namespace {
QGroupBox* group(const QString& title, QFormLayout*& form) {
  auto* box = new QGroupBox(title);
  form = new QFormLayout(box);
  form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
  return box;
}

// A small grey note under a row, wrapping.
QLabel* hintLabel(const QString& text) {
  auto* label = new QLabel(text);
  label->setWordWrap(true);
  label->setStyleSheet(QStringLiteral("color: palette(mid); font-size: small;"));
  return label;
}

// Gravity and the fields take any finite number.
constexpr double kHuge = std::numeric_limits<double>::max();
constexpr const char* kAxes[] = {"x", "y", "z"};
}  // namespace

ParametersDock::ParametersDock(QWidget* parent) : QDockWidget(tr("Parameters"), parent) {
  setObjectName(QStringLiteral("parametersDock"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  // The model parameters' limits are their declared ranges (core/model/ModelParameters.hpp), the
  // loader's and the engine's: nothing a file or the engine accepts is clamped by the panel.
  addTimeIntegration(*layout);
  addGravity(*layout);
  addMotionAndFields(*layout);
  addContact(*layout);
  addGlobalDamping(*layout);
  layout->addStretch(1);

  content->setMinimumWidth(300);
  auto* scroll = new QScrollArea;
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  setWidget(scroll);
  setParameters(shown_);
}

void ParametersDock::addTimeIntegration(QVBoxLayout& layout) {
  QFormLayout* form = nullptr;
  layout.addWidget(group(tr("Time integration"), form));
  timeStep_ = addParameter(form, tr("Time step"), QStringLiteral("s"), "time_step", true, tr("time step"),
                           tr("Δt of every step. Too large for the contact stiffness and the run diverges."));
  timeStepHint_ = hintLabel(QString());
  form->addRow(QString(), timeStepHint_);
  runSpeed_ = new WheelSafeComboBox;
  fillRunSpeeds(*runSpeed_);
  runSpeed_->setObjectName(QStringLiteral("run speed"));
  form->addRow(tr("Run speed"), runSpeed_);
  connect(runSpeed_, &QComboBox::activated, this, [this](int index) {
    const double speed = runSpeed_->itemData(index).toDouble();
    emit runSpeedChosen(speed > 0.0 ? speed : 1.0, speed == 0.0);
  });
  integrator_ = new WheelSafeComboBox;
  integrator_->setObjectName(QStringLiteral("integrator"));
  integrator_->addItem(tr("Leapfrog"), static_cast<int>(IntegratorKind::Leapfrog));
  integrator_->setItemData(
      0, tr("MercuryDPM's leapfrog with an iterative Euler solve (MercuryDPM rigid clumps, §2.6)"),
      Qt::ToolTipRole);
  integrator_->addItem(tr("Direct midpoint"), static_cast<int>(IntegratorKind::Midpoint));
  integrator_->setItemData(
      1, tr("Mutze's direct midpoint method with rotation vectors (Mutze, Polyspherical grains, PaLa)"),
      Qt::ToolTipRole);
  integrator_->addItem(tr("Splitting"), static_cast<int>(IntegratorKind::Splitting));
  integrator_->setItemData(2, tr("Symplectic splitting with a NO_SQUISH free rotor"), Qt::ToolTipRole);
  integrator_->addItem(tr("Cluster integration (CIM)"), static_cast<int>(IntegratorKind::Cim));
  integrator_->setItemData(3,
                           tr("Meland et al., Cluster integration method: clusters of nearby bodies "
                              "integrated apart with adaptive "
                              "Runge-Kutta-Fehlberg steps, isolated bodies moved exactly; the time step "
                              "is only how often the view updates. No tangential springs, fields or 2D."),
                           Qt::ToolTipRole);
  integrator_->addItem(tr("RK4 (DEM baseline)"), static_cast<int>(IntegratorKind::Rk4));
  integrator_->setItemData(
      4, tr("the cluster integration paper's baseline: classical Runge-Kutta 4 at the constant time step"),
      Qt::ToolTipRole);
  form->addRow(tr("Integrator"), integrator_);
  connect(integrator_, &QComboBox::currentIndexChanged, this, [this] {
    const auto kind = static_cast<IntegratorKind>(integrator_->currentData().toInt());
    edit(tr("integrator"), [kind](EditableModel& p) { p.integrator = kind; });
  });
  eulerIterations_ = new WheelSafeSpinBox;
  {
    const ParameterRange& r = modelParameter("euler_iterations").range;
    eulerIterations_->setRange(static_cast<int>(r.lowest), static_cast<int>(r.highest));
  }
  eulerIterations_->setToolTip(
      tr("Fixed-point iterations of the leapfrog's Euler solve (MercuryDPM rigid clumps, §2.6)"));
  form->addRow(tr("Euler iterations"), eulerIterations_);
  connect(eulerIterations_, &QSpinBox::valueChanged, this,
          [this](int n) { edit(tr("Euler iterations"), [n](EditableModel& p) { p.eulerIterations = n; }); });
}

void ParametersDock::addGravity(QVBoxLayout& layout) {
  QFormLayout* form = nullptr;
  layout.addWidget(group(tr("Gravity"), form));
  for (int a = 0; a < 3; ++a) {
    gravity_[a] =
        addNumber(form, QStringLiteral("g%1").arg(QLatin1String(kAxes[a])), QStringLiteral("m/s²"), -kHuge,
                  kHuge, false, tr("gravity %1").arg(QLatin1String(kAxes[a])), tr("Acceleration of gravity"),
                  [a](EditableModel& p, double v) { p.gravity[a] = v; });
  }
}

// PaLa's 2D / 3D switch and fields (Mutze, Polyspherical grains, §1 (i), (v), (vi)).
void ParametersDock::addMotionAndFields(QVBoxLayout& layout) {
  QFormLayout* form = nullptr;
  layout.addWidget(group(tr("Motion and fields"), form));
  motion_ = new WheelSafeComboBox;
  motion_->setObjectName(QStringLiteral("motion"));
  for (const MotionChoice choice : kMotionChoices)
    motion_->addItem(motionChoiceLabel(choice), static_cast<int>(choice));
  motion_->setToolTip(
      tr("2D: positions in a plane through the middle of the bodies, rotation about its "
         "normal only. Choosing reopens the scene."));
  form->addRow(tr("Motion"), motion_);
  connect(motion_, &QComboBox::activated, this, [this](int index) {
    emit motionChosen(static_cast<MotionChoice>(motion_->itemData(index).toInt()));
  });
  for (int a = 0; a < 3; ++a) {
    electric_[a] = addNumber(form, QStringLiteral("E%1").arg(QLatin1String(kAxes[a])), QStringLiteral("V/m"),
                             -kHuge, kHuge, false, tr("electric field %1").arg(QLatin1String(kAxes[a])),
                             tr("Uniform electric field: force qE and torque p×E on charged bodies"),
                             [a](EditableModel& p, double v) { p.fields.electric[a] = v; });
  }
  for (int a = 0; a < 3; ++a) {
    magnetic_[a] = addNumber(form, QStringLiteral("B%1").arg(QLatin1String(kAxes[a])), QStringLiteral("T"),
                             -kHuge, kHuge, false, tr("magnetic field %1").arg(QLatin1String(kAxes[a])),
                             tr("Uniform magnetic field: Lorentz force qv×B and torque m×B"),
                             [a](EditableModel& p, double v) { p.fields.magnetic[a] = v; });
  }
  addParameter(form, tr("G"), QStringLiteral("m³/(kg·s²)"), "gravitation.G", true,
               tr("gravitational constant"), tr("Newton's constant between bodies flagged as point masses"));
  addParameter(form, tr("Softening ε"), QStringLiteral("m"), "fields.softening", true, tr("softening"),
               tr("Softening length of every pairwise point interaction; 0 picks a tenth of the "
                  "smallest pebble radius"));
}

void ParametersDock::addContact(QVBoxLayout& layout) {
  QFormLayout* form = nullptr;
  layout.addWidget(group(tr("Contact"), form));
  model_ = new WheelSafeComboBox;
  model_->setObjectName(QStringLiteral("contact model"));
  // One page per item, in this order (modelPages_).
  model_->addItem(tr("Linear spring–dashpot"), static_cast<int>(ContactModel::Kind::Linear));
  model_->addItem(tr("Hertz (Mutze eq. 52–57)"), static_cast<int>(ContactModel::Kind::Hertz));
  model_->addItem(tr("Hertz–Mindlin (material card)"), static_cast<int>(ContactModel::Kind::HertzMindlin));
  model_->setItemData(1,
                      tr("Mutze's law: at the same Young's modulus 1.84× stiffer than Hertz's (Johnson, "
                         "Landau–Lifshitz)"),
                      Qt::ToolTipRole);
  model_->setItemData(2,
                      tr("Hertz's normal force with Mindlin's tangential spring, as LIGGGHTS and EDEM "
                         "take a material card: E, ν, restitution, friction"),
                      Qt::ToolTipRole);
  form->addRow(tr("Model"), model_);
  connect(model_, &QComboBox::currentIndexChanged, this, [this](int i) {
    modelPages_->setCurrentIndex(i);
    const auto kind = static_cast<ContactModel::Kind>(model_->itemData(i).toInt());
    edit(tr("contact model"), [kind](EditableModel& p) { p.contact.kind = kind; });
  });
  modelPages_ = new QStackedWidget;
  form->addRow(modelPages_);

  modelPages_->addWidget(linearPage());
  modelPages_->addWidget(hertzPage());
  modelPages_->addWidget(mindlinPage());
}

QWidget* ParametersDock::linearPage() {
  auto* page = new QWidget;
  auto* linearForm = new QFormLayout(page);
  linearForm->setContentsMargins(0, 0, 0, 0);
  addParameter(linearForm, tr("Stiffness kn"), QStringLiteral("N/m"), "linear.stiffness", true,
               tr("stiffness"), tr("Normal spring stiffness"));
  dampingMode_ = new WheelSafeComboBox;
  dampingMode_->addItem(tr("from restitution"));
  dampingMode_->addItem(tr("fixed dashpot"));
  linearForm->addRow(tr("Normal damping"), dampingMode_);
  connect(dampingMode_, &QComboBox::currentIndexChanged, this, [this](int i) {
    edit(tr("damping mode"), [i](EditableModel& p) { p.contact.linear.dampingFromRestitution = i == 0; });
  });
  restitution_ = addParameter(
      linearForm, tr("Restitution e"), QString(), "linear.restitution", false, tr("restitution"),
      tr("Normal coefficient of restitution. The dashpot is derived per pair from the two bodies' masses "
         "(a body's own at a wall): exact for an impact through one contact."));
  // Parallel contacts share the body's mass, and each dashpot is sized for all of it.
  QLabel* restitutionHint = hintLabel(
      tr("Bounces are lower when a body lands on several pebbles at once (a flat dumbbell: 0.37 for 0.5)."));
  restitutionHint->setObjectName(QStringLiteral("restitution hint"));
  // Across the whole row (a wrapped label in the field column is given too little height).
  restitutionHint->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  linearForm->addRow(restitutionHint);
  dashpot_ = addParameter(linearForm, tr("Dashpot c"), QStringLiteral("N·s/m"), "linear.damping", true,
                          tr("dashpot"), tr("Fixed normal damping coefficient"));
  addParameter(linearForm, tr("Friction μ"), QString(), "linear.friction", false, tr("friction"),
               tr("Coulomb friction coefficient"));
  addParameter(linearForm, tr("kt / kn"), QString(), "linear.tangential_stiffness_ratio", false,
               tr("tangential stiffness"), tr("Tangential spring stiffness relative to kn"));
  addParameter(linearForm, tr("Tangential damping"), QStringLiteral("N·s/m"), "linear.tangential_damping",
               true, tr("tangential damping"), tr("Tangential dashpot"));
  limitDamping_ = new QCheckBox(tr("never attract (clamp F ≥ 0)"));
  linearForm->addRow(limitDamping_);  // across both columns: beside the labels its text was cut off
  connect(limitDamping_, &QCheckBox::toggled, this, [this](bool on) {
    edit(tr("damping clamp"), [on](EditableModel& p) { p.contact.linear.limitDamping = on; });
  });
  return page;
}

QWidget* ParametersDock::hertzPage() {
  auto* page = new QWidget;
  auto* hertzForm = new QFormLayout(page);
  hertzForm->setContentsMargins(0, 0, 0, 0);
  addParameter(hertzForm, tr("Young's modulus E"), QStringLiteral("Pa"), "hertz.young", true,
               tr("Young's modulus"), tr("Elastic modulus of the pebbles"));
  addParameter(hertzForm, tr("Poisson ratio σ"), QString(), "hertz.poisson", false, tr("Poisson ratio"),
               tr("Poisson ratio"));
  addParameter(hertzForm, tr("Restitution² δ"), QString(), "hertz.restitution_squared", false,
               tr("restitution squared"), tr("Square of the normal restitution (eq. 56)"));
  addParameter(hertzForm, tr("Friction μ"), QString(), "hertz.friction", false, tr("friction"),
               tr("Regularised Coulomb friction (eq. 53)"));
  addParameter(hertzForm, tr("Regularising velocity ν"), QStringLiteral("m/s"), "hertz.regularizing_velocity",
               true, tr("regularising velocity"), tr("Velocity scale of the friction regularisation"));
  return page;
}

QWidget* ParametersDock::mindlinPage() {
  auto* page = new QWidget;
  auto* mindlinForm = new QFormLayout(page);
  mindlinForm->setContentsMargins(0, 0, 0, 0);
  addParameter(mindlinForm, tr("Young's modulus E"), QStringLiteral("Pa"), "hertz-mindlin.youngs_modulus",
               true, tr("hertz-mindlin Young's modulus"),
               tr("The material's Young's modulus, as on a LIGGGHTS or EDEM card (pebbles and walls alike)"));
  addParameter(mindlinForm, tr("Poisson ratio ν"), QString(), "hertz-mindlin.poisson", false,
               tr("hertz-mindlin Poisson ratio"), tr("The material's Poisson ratio"));
  addParameter(mindlinForm, tr("Restitution e"), QString(), "hertz-mindlin.restitution", false,
               tr("hertz-mindlin restitution"),
               tr("Normal coefficient of restitution; the dashpots follow from it as in LIGGGHTS"));
  addParameter(mindlinForm, tr("Friction μ"), QString(), "hertz-mindlin.friction", false,
               tr("hertz-mindlin friction"), tr("Coulomb friction, with Mindlin's tangential spring"));
  return page;
}

void ParametersDock::addGlobalDamping(QVBoxLayout& layout) {
  QFormLayout* form = nullptr;
  layout.addWidget(group(tr("Global damping"), form));
  addParameter(form, tr("Linear"), QStringLiteral("1/s"), "damping.linear", false, tr("linear damping"),
               tr("Force −γ m v on every body; its work counts as dissipated"));
  addParameter(form, tr("Angular"), QStringLiteral("1/s"), "damping.angular", false, tr("angular damping"),
               tr("Torque −γ I ω on every body; its work counts as dissipated"));
  addParameter(form, tr("Local λ"), QString(), "damping.local", false, tr("local damping"),
               tr("Cundall's non-viscous damping, as in Woo and Yade: each component of a body's force F_i "
                  "scaled by 1 − λ sign(F_i v_i), of its torque likewise; its work counts as dissipated. "
                  "Not in cim and rk4"));
}

ScientificSpinBox* ParametersDock::addNumber(QFormLayout* form, const QString& label, const QString& unit,
                                             double min, double max, bool logarithmic, const QString& what,
                                             const QString& tip, Setter setter) {
  auto* box = new ScientificSpinBox(unit, min, max, logarithmic);
  box->setObjectName(what);  // for tests and accessibility
  box->setToolTip(tip);
  form->addRow(label, box);
  connect(box, &QDoubleSpinBox::valueChanged, this,
          [this, what, setter](double value) { edit(what, [&](EditableModel& p) { setter(p, value); }); });
  return box;
}

ScientificSpinBox* ParametersDock::addParameter(QFormLayout* form, const QString& label, const QString& unit,
                                                std::string_view key, bool logarithmic, const QString& what,
                                                const QString& tip) {
  const ModelParameter& parameter = modelParameter(key);
  const ParameterRange& range = parameter.range;
  // The box holds multiples of 1e-323 (ScientificSpinBox's 323 decimals): above an open 0 that is its
  // smallest value.
  const double lowest = range.lowestIncluded || range.lowest != 0.0 ? range.smallestAccepted() : 1e-323;
  ScientificSpinBox* box =
      addNumber(form, label, unit, lowest, range.largestAccepted(), logarithmic, what, tip,
                [&parameter](EditableModel& p, double v) { parameter.assign(p, v); });
  box->setProperty("modelParameter", QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())));
  parameterBoxes_.emplace_back(&parameter, box);
  return box;
}

void ParametersDock::showRunSpeed(double speed, bool asFastAsPossible) {
  gui::showRunSpeed(*runSpeed_, speed, asFastAsPossible);
}

void ParametersDock::setTimeStepHints(double critical, double recommended) {
  const bool cim = shown_.integrator == IntegratorKind::Cim;
  if (critical == hintCritical_ && recommended == hintRecommended_ && cim == hintCim_) return;  // every frame
  hintCritical_ = critical;
  hintRecommended_ = recommended;
  hintCim_ = cim;
  if (cim) {  // Meland et al., Cluster integration method: the method's own steps adapt; the time step is how
              // often the view updates
    timeStepHint_->setText(
        tr("cim: how often the view updates; the clusters' own steps adapt (cim settings "
           "in the scene: buffer, rtol, min_step)"));
    return;
  }
  if (!std::isfinite(critical)) {
    timeStepHint_->setText(tr("no contact can happen (one body, no walls): the step sets only the accuracy"));
    return;
  }
  if (recommended == critical) {  // no contact shorter than ten steps: the stable step is the advice
    timeStepHint_->setText(
        tr("stable below ≈ %1 s, the recommended step").arg(QString::number(critical, 'g', 3)));
    return;
  }
  timeStepHint_->setText(tr("stable below ≈ %1 s · recommended %2 s")
                             .arg(QString::number(critical, 'g', 3), QString::number(recommended, 'g', 3)));
}

void ParametersDock::setParameters(const EditableModel& p) {
  updating_ = true;
  shown_ = p;
  // Every box of a declared parameter shows its value, read through the declaration.
  WorldSettings settings;
  ContactModel contact;
  p.writeTo(settings, contact);
  for (const auto& [parameter, box] : parameterBoxes_) box->setValue(parameter->value(settings, contact));
  integrator_->setCurrentIndex(integrator_->findData(static_cast<int>(p.integrator)));
  eulerIterations_->setValue(p.eulerIterations);
  eulerIterations_->setEnabled(p.integrator == IntegratorKind::Leapfrog);
  for (int a = 0; a < 3; ++a) gravity_[a]->setValue(p.gravity[a]);
  const int modelIndex = model_->findData(static_cast<int>(p.contact.kind));
  model_->setCurrentIndex(modelIndex);
  modelPages_->setCurrentIndex(modelIndex);
  const LinearContactParameters& l = p.contact.linear;
  dampingMode_->setCurrentIndex(l.dampingFromRestitution ? 0 : 1);
  restitution_->setEnabled(l.dampingFromRestitution);
  dashpot_->setEnabled(!l.dampingFromRestitution);
  limitDamping_->setChecked(l.limitDamping);
  for (int a = 0; a < 3; ++a) {
    electric_[a]->setValue(p.fields.electric[a]);
    magnetic_[a]->setValue(p.fields.magnetic[a]);
  }
  updating_ = false;
}

void ParametersDock::showMotion(MotionChoice choice, const QString& sceneFileMotion) {
  const QSignalBlocker block(motion_);
  motion_->setItemText(0, tr("Scene file: %1").arg(sceneFileMotion));
  motion_->setItemData(0, tr("As the scene file says: %1").arg(sceneFileMotion), Qt::ToolTipRole);
  motion_->setCurrentIndex(motion_->findData(static_cast<int>(choice)));
}

void ParametersDock::edit(const QString& what, const std::function<void(EditableModel&)>& change) {
  if (updating_) return;
  // Only the edited field changes: every other parameter keeps its exact value, whatever its
  // widget shows.
  EditableModel p = shown_;
  change(p);
  if (p == shown_) return;
  setParameters(p);  // enables/disables dependent fields
  emit edited(p, what);
}

}  // namespace clumplab::gui

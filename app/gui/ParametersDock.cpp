#include "ParametersDock.hpp"

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

#include "ScientificSpinBox.hpp"

namespace clumplab::gui {

namespace {
QGroupBox* group(const QString& title, QFormLayout*& form) {
  auto* box = new QGroupBox(title);
  form = new QFormLayout(box);
  form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
  return box;
}
}  // namespace

ParametersDock::ParametersDock(QWidget* parent) : QDockWidget(tr("Parameters"), parent) {
  setObjectName(QStringLiteral("parametersDock"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);

  QFormLayout* form = nullptr;
  layout->addWidget(group(tr("Time integration"), form));
  timeStep_ = addNumber(form, tr("Time step"), QStringLiteral("s"), 1e-9, 1.0, true, tr("time step"),
                        tr("Δt of every step. Too large for the contact stiffness and the run diverges."));
  timeStepHint_ = new QLabel;
  timeStepHint_->setWordWrap(true);
  timeStepHint_->setStyleSheet(QStringLiteral("color: palette(mid); font-size: small;"));
  form->addRow(QString(), timeStepHint_);
  integrator_ = new QComboBox;
  integrator_->addItem(tr("Leapfrog"), static_cast<int>(IntegratorKind::Leapfrog));
  integrator_->setItemData(0, tr("MercuryDPM's leapfrog with an iterative Euler solve (seed 000 §2.6)"),
                           Qt::ToolTipRole);
  integrator_->addItem(tr("Direct midpoint"), static_cast<int>(IntegratorKind::Midpoint));
  integrator_->setItemData(1, tr("Mutze's direct midpoint method with rotation vectors (seed 001, PaLa)"),
                           Qt::ToolTipRole);
  integrator_->addItem(tr("Splitting"), static_cast<int>(IntegratorKind::Splitting));
  integrator_->setItemData(2, tr("Symplectic splitting with a NO_SQUISH free rotor"), Qt::ToolTipRole);
  form->addRow(tr("Integrator"), integrator_);
  connect(integrator_, &QComboBox::currentIndexChanged, this, [this] { report(tr("integrator")); });
  eulerIterations_ = new QSpinBox;
  eulerIterations_->setRange(1, 50);
  eulerIterations_->setToolTip(tr("Fixed-point iterations of the leapfrog's Euler solve (seed 000 §2.6)"));
  form->addRow(tr("Euler iterations"), eulerIterations_);
  connect(eulerIterations_, &QSpinBox::valueChanged, this, [this] { report(tr("Euler iterations")); });

  layout->addWidget(group(tr("Gravity"), form));
  const char* axes[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    gravity_[a] =
        addNumber(form, QStringLiteral("g%1").arg(QLatin1String(axes[a])), QStringLiteral("m/s²"), -1e3, 1e3,
                  false, tr("gravity %1").arg(QLatin1String(axes[a])), tr("Acceleration of gravity"));
  }

  layout->addWidget(group(tr("Contact"), form));
  model_ = new QComboBox;
  model_->addItem(tr("Linear spring–dashpot"));
  model_->addItem(tr("Hertz (Mutze eq. 52–57)"));
  form->addRow(tr("Model"), model_);
  connect(model_, &QComboBox::currentIndexChanged, this, [this](int i) {
    modelPages_->setCurrentIndex(i);
    report(tr("contact model"));
  });
  modelPages_ = new QStackedWidget;
  form->addRow(modelPages_);

  auto* linearPage = new QWidget;
  auto* linearForm = new QFormLayout(linearPage);
  linearForm->setContentsMargins(0, 0, 0, 0);
  stiffness_ = addNumber(linearForm, tr("Stiffness kn"), QStringLiteral("N/m"), 1e-6, 1e12, true,
                         tr("stiffness"), tr("Normal spring stiffness"));
  dampingMode_ = new QComboBox;
  dampingMode_->addItem(tr("from restitution"));
  dampingMode_->addItem(tr("fixed dashpot"));
  linearForm->addRow(tr("Normal damping"), dampingMode_);
  connect(dampingMode_, &QComboBox::currentIndexChanged, this, [this] { report(tr("damping mode")); });
  restitution_ = addNumber(linearForm, tr("Restitution e"), QString(), 0.0, 1.0, false, tr("restitution"),
                           tr("Normal coefficient of restitution (damping derived per pair)"));
  dashpot_ = addNumber(linearForm, tr("Dashpot c"), QStringLiteral("N·s/m"), 0.0, 1e9, true, tr("dashpot"),
                       tr("Fixed normal damping coefficient"));
  linearFriction_ = addNumber(linearForm, tr("Friction μ"), QString(), 0.0, 10.0, false, tr("friction"),
                              tr("Coulomb friction coefficient"));
  tangentialRatio_ = addNumber(linearForm, tr("kt / kn"), QString(), 0.0, 10.0, false,
                               tr("tangential stiffness"), tr("Tangential spring stiffness relative to kn"));
  tangentialDamping_ = addNumber(linearForm, tr("Tangential damping"), QStringLiteral("N·s/m"), 0.0, 1e9,
                                 true, tr("tangential damping"), tr("Tangential dashpot"));
  limitDamping_ = new QCheckBox(tr("never attract (clamp F ≥ 0)"));
  linearForm->addRow(QString(), limitDamping_);
  connect(limitDamping_, &QCheckBox::toggled, this, [this] { report(tr("damping clamp")); });
  modelPages_->addWidget(linearPage);

  auto* hertzPage = new QWidget;
  auto* hertzForm = new QFormLayout(hertzPage);
  hertzForm->setContentsMargins(0, 0, 0, 0);
  young_ = addNumber(hertzForm, tr("Young's modulus E"), QStringLiteral("Pa"), 1.0, 1e13, true,
                     tr("Young's modulus"), tr("Elastic modulus of the pebbles"));
  poisson_ = addNumber(hertzForm, tr("Poisson ratio σ"), QString(), 0.0, 0.5, false, tr("Poisson ratio"),
                       tr("Poisson ratio"));
  restitutionSquared_ = addNumber(hertzForm, tr("Restitution² δ"), QString(), 0.0, 1.0, false,
                                  tr("restitution squared"), tr("Square of the normal restitution (eq. 57)"));
  hertzFriction_ = addNumber(hertzForm, tr("Friction μ"), QString(), 0.0, 10.0, false, tr("friction"),
                             tr("Regularised Coulomb friction (eq. 56)"));
  regularizingVelocity_ =
      addNumber(hertzForm, tr("Regularising velocity ν"), QStringLiteral("m/s"), 1e-9, 10.0, true,
                tr("regularising velocity"), tr("Velocity scale of the friction regularisation"));
  modelPages_->addWidget(hertzPage);

  layout->addWidget(group(tr("Global damping"), form));
  linearDamping_ = addNumber(form, tr("Linear"), QStringLiteral("1/s"), 0.0, 1e4, false, tr("linear damping"),
                             tr("Force −γ m v on every body; its work counts as dissipated"));
  angularDamping_ =
      addNumber(form, tr("Angular"), QStringLiteral("1/s"), 0.0, 1e4, false, tr("angular damping"),
                tr("Torque −γ I ω on every body; its work counts as dissipated"));
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

ScientificSpinBox* ParametersDock::addNumber(QFormLayout* form, const QString& label, const QString& unit,
                                             double min, double max, bool logarithmic, const QString& what,
                                             const QString& tip) {
  auto* box = new ScientificSpinBox(unit, min, max, logarithmic);
  box->setToolTip(tip);
  form->addRow(label, box);
  connect(box, &QDoubleSpinBox::valueChanged, this, [this, what] { report(what); });
  return box;
}

void ParametersDock::setTimeStepHints(double critical, double recommended) {
  timeStepHint_->setText(tr("stable below ≈ %1 s · recommended %2 s")
                             .arg(QString::number(critical, 'g', 3), QString::number(recommended, 'g', 3)));
}

void ParametersDock::setParameters(const SceneParameters& p) {
  updating_ = true;
  shown_ = p;
  timeStep_->setValue(p.timeStep);
  integrator_->setCurrentIndex(integrator_->findData(static_cast<int>(p.integrator)));
  eulerIterations_->setValue(p.eulerIterations);
  eulerIterations_->setEnabled(p.integrator == IntegratorKind::Leapfrog);
  for (int a = 0; a < 3; ++a) gravity_[a]->setValue(p.gravity[a]);
  const bool hertz = p.contact.kind == ContactModel::Kind::Hertz;
  model_->setCurrentIndex(hertz ? 1 : 0);
  modelPages_->setCurrentIndex(hertz ? 1 : 0);
  const LinearContactParameters& l = p.contact.linear;
  stiffness_->setValue(l.stiffness);
  dampingMode_->setCurrentIndex(l.dampingFromRestitution ? 0 : 1);
  restitution_->setValue(l.restitution);
  restitution_->setEnabled(l.dampingFromRestitution);
  dashpot_->setValue(l.damping);
  dashpot_->setEnabled(!l.dampingFromRestitution);
  linearFriction_->setValue(l.friction);
  tangentialRatio_->setValue(l.tangentialStiffnessRatio);
  tangentialDamping_->setValue(l.tangentialDamping);
  limitDamping_->setChecked(l.limitDamping);
  const HertzContactParameters& h = p.contact.hertz;
  young_->setValue(h.young);
  poisson_->setValue(h.poisson);
  restitutionSquared_->setValue(h.restitutionSquared);
  hertzFriction_->setValue(h.friction);
  regularizingVelocity_->setValue(h.regularizingVelocity);
  linearDamping_->setValue(p.linearDamping);
  angularDamping_->setValue(p.angularDamping);
  updating_ = false;
}

void ParametersDock::readWidgets(SceneParameters& p) const {
  p.timeStep = timeStep_->value();
  p.integrator = static_cast<IntegratorKind>(integrator_->currentData().toInt());
  p.eulerIterations = eulerIterations_->value();
  for (int a = 0; a < 3; ++a) p.gravity[a] = gravity_[a]->value();
  p.contact.kind = model_->currentIndex() == 1 ? ContactModel::Kind::Hertz : ContactModel::Kind::Linear;
  LinearContactParameters& l = p.contact.linear;
  l.stiffness = stiffness_->value();
  l.dampingFromRestitution = dampingMode_->currentIndex() == 0;
  l.restitution = restitution_->value();
  l.damping = dashpot_->value();
  l.friction = linearFriction_->value();
  l.tangentialStiffnessRatio = tangentialRatio_->value();
  l.tangentialDamping = tangentialDamping_->value();
  l.limitDamping = limitDamping_->isChecked();
  HertzContactParameters& h = p.contact.hertz;
  h.young = young_->value();
  h.poisson = poisson_->value();
  h.restitutionSquared = restitutionSquared_->value();
  h.friction = hertzFriction_->value();
  h.regularizingVelocity = regularizingVelocity_->value();
  p.linearDamping = linearDamping_->value();
  p.angularDamping = angularDamping_->value();
}

void ParametersDock::report(const QString& what) {
  if (updating_) return;
  SceneParameters p = shown_;
  readWidgets(p);
  if (p == shown_) return;
  shown_ = p;
  setParameters(p);  // enables/disables dependent fields
  emit edited(p, what);
}

}  // namespace clumplab::gui

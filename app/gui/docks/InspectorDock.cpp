#include "gui/docks/InspectorDock.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "gui/widgets/TimeSeriesChart.hpp"

namespace clumplab::gui {

BodyReadout BodyReadout::of(const Snapshot& s, std::size_t i) {
  BodyReadout r;
  const ClumpTemplate& t = *s.templates[s.bodies.templateIndex[i]];
  r.templateName = t.name;
  r.mass = t.mass;
  r.principalMoments = t.principalMoments;
  r.position = s.bodies.position[i];
  r.velocity = s.bodies.velocity[i];
  r.orientation = s.bodies.orientation[i];
  r.angularVelocity = s.bodies.angularVelocity[i];
  r.bodyAngularVelocity = r.orientation.conjugate() * r.angularVelocity;
  const Vec3 lBody = t.principalMoments.cwiseProduct(r.bodyAngularVelocity);
  r.angularMomentum = r.orientation * lBody;
  r.kineticTranslational = 0.5 * t.mass * r.velocity.squaredNorm();
  r.kineticRotational = 0.5 * r.bodyAngularVelocity.dot(lBody);
  return r;
}

namespace {
enum Row { Mass, Moments, Position, Velocity, Omega, OmegaBody, L, KeT, KeR, RowCount };
const char* kRowNames[] = {"mass",     "I (principal)", "position",   "velocity", "ω (world)",
                           "ω (body)", "L (c.o.m.)",    "KE transl.", "KE rot."};
const char* kRowUnits[] = {"kg", "kg·m²", "m", "m/s", "rad/s", "rad/s", "kg·m²/s", "J", "J"};
enum Column { Name, X, Y, Z, Unit, ColumnCount };

QString number(double v) {
  return QString::number(v, 'g', 4);
}
}  // namespace

InspectorDock::InspectorDock(QWidget* parent) : QDockWidget(tr("Inspector"), parent) {
  setObjectName(QStringLiteral("inspectorDock"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(4, 4, 4, 4);
  title_ = new QLabel(tr("Click a body to inspect it."));
  layout->addWidget(title_);
  table_ = new QTreeWidget;
  table_->setColumnCount(ColumnCount);
  table_->setHeaderLabels(
      {QString(), QStringLiteral("x / 1"), QStringLiteral("y / 2"), QStringLiteral("z / 3"), QString()});
  table_->setRootIsDecorated(false);
  table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->header()->setStretchLastSection(false);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setToolTip(
      tr("World components (x, y, z), or body-frame components along the principal axes (1, 2, 3) "
         "for ω (body) and the principal moments"));
  for (int r = 0; r < RowCount; ++r) {
    auto* item = new QTreeWidgetItem(
        table_, {tr(kRowNames[r]), QString(), QString(), QString(), QString::fromUtf8(kRowUnits[r])});
    for (int c = X; c <= Z; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    rows_.push_back(item);
  }
  table_->setMinimumHeight(table_->sizeHintForRow(0) * (RowCount + 1));
  layout->addWidget(table_);

  plotChoice_ = new QComboBox;
  plotChoice_->addItems({tr("plot ω in the body frame"), tr("plot ω in the world frame"), tr("plot velocity"),
                         tr("plot position"), tr("plot kinetic energy")});
  layout->addWidget(plotChoice_);
  chartStack_ = new QStackedWidget;
  charts_[0] = new TimeSeriesChart({QStringLiteral("ω1"), QStringLiteral("ω2"), QStringLiteral("ω3")},
                                   tr("ω [rad/s]"));
  charts_[1] = new TimeSeriesChart({QStringLiteral("ωx"), QStringLiteral("ωy"), QStringLiteral("ωz")},
                                   tr("ω [rad/s]"));
  charts_[2] =
      new TimeSeriesChart({QStringLiteral("vx"), QStringLiteral("vy"), QStringLiteral("vz")}, tr("[m/s]"));
  charts_[3] =
      new TimeSeriesChart({QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")}, tr("[m]"));
  charts_[4] = new TimeSeriesChart({tr("translational"), tr("rotational")}, tr("[J]"));
  for (TimeSeriesChart* c : charts_) {
    c->setRollingWindow(0.0);
    chartStack_->addWidget(c);
  }
  chart_ = charts_[0];
  layout->addWidget(chartStack_, 1);
  connect(plotChoice_, &QComboBox::currentIndexChanged, this, &InspectorDock::choosePlot);
  setWidget(content);
}

QImage InspectorDock::bodyOmegaPlotImage(QSize size) {
  return charts_[0]->renderImage(size);
}

void InspectorDock::choosePlot(int index) {
  chart_ = charts_[index];
  chartStack_->setCurrentIndex(index);
}

void InspectorDock::setRow(QTreeWidgetItem* item, const QString& value) {
  if (item->text(X) != value) item->setText(X, value);
  item->setText(Y, QString());
  item->setText(Z, QString());
}

void InspectorDock::setRow(QTreeWidgetItem* item, const Vec3& value) {
  for (int c = 0; c < 3; ++c) {
    const QString text = number(value[c]);
    if (item->text(X + c) != text) item->setText(X + c, text);
  }
}

void InspectorDock::show(const Snapshot& s, int body, std::uint64_t generation) {
  if (body != body_ || generation != generation_) {
    body_ = body;
    generation_ = generation;
    lastTime_ = -1.0;
    for (TimeSeriesChart* c : charts_) c->clear();
  }
  if (body < 0 || static_cast<std::size_t>(body) >= s.bodies.size()) {
    title_->setText(tr("Click a body to inspect it."));
    for (QTreeWidgetItem* r : rows_) setRow(r, QString());
    for (TimeSeriesChart* c : charts_) c->refresh();
    return;
  }
  const BodyReadout r = BodyReadout::of(s, static_cast<std::size_t>(body));
  title_->setText(
      tr("<b>Body %1</b> · %2").arg(body).arg(QString::fromStdString(r.templateName).toHtmlEscaped()));
  setRow(rows_[Mass], number(r.mass));
  setRow(rows_[Moments], r.principalMoments);
  setRow(rows_[Position], r.position);
  setRow(rows_[Velocity], r.velocity);
  setRow(rows_[Omega], r.angularVelocity);
  setRow(rows_[OmegaBody], r.bodyAngularVelocity);
  setRow(rows_[L], r.angularMomentum);
  setRow(rows_[KeT], number(r.kineticTranslational));
  setRow(rows_[KeR], number(r.kineticRotational));
  if (s.time != lastTime_) {
    lastTime_ = s.time;
    auto v = [](const Vec3& x) { return std::vector<double>{x.x(), x.y(), x.z()}; };
    charts_[0]->append(s.time, v(r.bodyAngularVelocity));
    charts_[1]->append(s.time, v(r.angularVelocity));
    charts_[2]->append(s.time, v(r.velocity));
    charts_[3]->append(s.time, v(r.position));
    charts_[4]->append(s.time, {r.kineticTranslational, r.kineticRotational});
  }
  chart_->refresh();
}

}  // namespace clumplab::gui

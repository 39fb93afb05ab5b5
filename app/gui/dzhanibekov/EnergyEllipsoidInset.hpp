#pragma once
// The Dzhanibekov mode's inset: angular-momentum space in the body frame (Landau & Lifshitz §37,
// Fig. 50). The sphere |L| = M (eq. 37.6) with its polhodes for a range of energies, the separatrix
// through the intermediate axis, the energy ellipsoid L1^2/I1 + L2^2/I2 + L3^2/I3 = 2E (eq. 37.5)
// of the current state, the polhode where the two meet and the point L moving on it; the principal
// axes 1, 2, 3 in red, green and blue. An orthographic view, turned by dragging.
#include <QWidget>
#include <vector>

#include "gui/dzhanibekov/Polhode.hpp"

namespace clumplab::gui {

class EnergyEllipsoidInset : public QWidget {
  Q_OBJECT
 public:
  explicit EnergyEllipsoidInset(QWidget* parent = nullptr);

  // The body's principal moments [kg m^2] and body-frame angular velocity [rad/s].
  void setState(const Vec3& moments, const Vec3& omegaBody);
  void clear();
  bool hasState() const { return valid_; }
  // What is drawn (for tests): the current polhode and the separatrix, in L-space.
  const std::vector<Curve>& currentPolhode() const { return current_; }
  const std::vector<Curve>& separatrixCurves() const { return separatrix_; }

  QSize sizeHint() const override { return {320, 260}; }
  QSize minimumSizeHint() const override { return {200, 170}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  void rebuildCurves();

  bool valid_ = false;
  Vec3 moments_ = Vec3::Ones();
  Vec3 omega_ = Vec3::Zero();
  Vec3 l_ = Vec3::Zero();      // body-frame angular momentum [kg m^2/s]
  double momentum_ = 0.0;      // |L|
  double energy_ = 0.0;        // [J]
  std::vector<Curve> family_;  // polhodes of the same M at other energies
  std::vector<Curve> separatrix_;
  std::vector<Curve> current_;
  std::vector<Curve> ellipsoid_;          // the energy ellipsoid's principal sections and a few parallels
  Vec3 builtFor_ = Vec3::Constant(-1.0);  // moments, M, E the curves were built for
  double yaw_ = 0.65, pitch_ = 0.42;      // [rad] view direction
  QPoint lastMouse_;
};

}  // namespace clumplab::gui

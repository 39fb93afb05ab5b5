#include "gui/recording/PlotInset.hpp"

#include <QPainter>
#include <algorithm>

namespace clumplab::gui {

PlotInset plotInsetFor(QSize frameSize) {
  const int margin = std::max(6, frameSize.height() / 60);
  const QSize inset(frameSize.width() * 3 / 8, frameSize.height() * 2 / 7);
  const double scale = std::max(1.0, frameSize.height() / 720.0) / 1.3;
  PlotInset p;
  p.box = QRect(margin, frameSize.height() - margin - inset.height(), inset.width(), inset.height());
  p.plotSize = QSize(static_cast<int>(inset.width() / scale), static_cast<int>(inset.height() / scale));
  return p;
}

void drawPlotInset(QImage& frame, const QImage& plot) {
  if (plot.isNull() || frame.isNull()) return;
  const QRect box = plotInsetFor(frame.size()).box;
  QPainter painter(&frame);
  painter.setRenderHint(QPainter::SmoothPixmapTransform);
  // The plot's own background may be translucent: a solid ground first, so curves drawn in the
  // scene behind the inset (a polhode, an arrow) never show through the plot.
  painter.fillRect(box, QColor(18, 20, 24));
  painter.drawImage(box, plot);
}

}  // namespace clumplab::gui

#pragma once
// Images written atomically: through QSaveFile, so a failed or interrupted write leaves
// any earlier file at the path as it was.
#include <QImage>
#include <QPixmap>
#include <QSaveFile>
#include <QString>

namespace clumplab::gui {

inline bool saveImageAtomically(const QImage& image, const QString& path, const char* format = "PNG") {
  if (image.isNull()) return false;
  QSaveFile file(path);
  return file.open(QIODevice::WriteOnly) && image.save(&file, format) && file.commit();
}

inline bool saveImageAtomically(const QPixmap& image, const QString& path, const char* format = "PNG") {
  return saveImageAtomically(image.toImage(), path, format);
}

}  // namespace clumplab::gui

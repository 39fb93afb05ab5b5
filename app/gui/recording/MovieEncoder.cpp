#include "gui/recording/MovieEncoder.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

namespace clumplab::gui {

QString findFfmpeg(const QString& program) {
  const QFileInfo file(program);
  if (!file.isAbsolute()) return QStandardPaths::findExecutable(program);
  return file.isExecutable() ? program : QString();
}

MovieSettings MovieSettings::asPngSequence() const {
  MovieSettings png = *this;
  const QFileInfo movie(path);
  png.path = movie.dir().filePath(movie.completeBaseName() + QStringLiteral("-frames"));
  png.format = MovieFormat::PngSequence;
  return png;
}

MovieFormat MovieSettings::formatFor(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("mp4") || suffix == QLatin1String("m4v")) return MovieFormat::Mp4;
  if (suffix == QLatin1String("webm")) return MovieFormat::WebM;
  if (suffix == QLatin1String("gif")) return MovieFormat::Gif;
  return MovieFormat::PngSequence;
}

MovieEncoder::MovieEncoder(MovieSettings settings) : settings_(std::move(settings)) {}

MovieEncoder::~MovieEncoder() {
  if (open_) finish();
}

QString MovieEncoder::start(QSize size) {
  size_ = QSize(size.width() & ~1, size.height() & ~1);
  if (size_.width() < 2 || size_.height() < 2)
    return QStringLiteral("%1: the frames are too small").arg(settings_.path);
  frames_ = 0;
  pngBytes_ = 0;
  if (settings_.format == MovieFormat::PngSequence) {
    if (!QDir().mkpath(settings_.path))
      return QStringLiteral("%1: cannot create the folder").arg(settings_.path);
    open_ = true;
    return QString();
  }
  const QString program = findFfmpeg(settings_.ffmpeg);
  if (program.isEmpty()) {
    return QStringLiteral(
               "%1: not recorded: ffmpeg was not found (install it, e.g. apt-get install ffmpeg), or record "
               "a PNG sequence instead (a folder name)")
        .arg(settings_.path);
  }
  QStringList args = {
      QStringLiteral("-hide_banner"), QStringLiteral("-loglevel"),
      QStringLiteral("error"),        QStringLiteral("-y"),
      QStringLiteral("-f"),           QStringLiteral("rawvideo"),
      QStringLiteral("-pix_fmt"),     QStringLiteral("rgb24"),
      QStringLiteral("-s"),           QStringLiteral("%1x%2").arg(size_.width()).arg(size_.height()),
      QStringLiteral("-r"),           QString::number(settings_.framesPerSecond),
      QStringLiteral("-i"),           QStringLiteral("-")};
  switch (settings_.format) {
    case MovieFormat::Mp4:
      args << QStringLiteral("-c:v") << QStringLiteral("libx264") << QStringLiteral("-pix_fmt")
           << QStringLiteral("yuv420p") << QStringLiteral("-crf") << QString::number(settings_.crf)
           << QStringLiteral("-preset") << QStringLiteral("medium") << QStringLiteral("-movflags")
           << QStringLiteral("+faststart");
      break;
    case MovieFormat::WebM:
      args << QStringLiteral("-c:v") << QStringLiteral("libvpx-vp9") << QStringLiteral("-pix_fmt")
           << QStringLiteral("yuv420p") << QStringLiteral("-crf") << QString::number(settings_.crf + 14)
           << QStringLiteral("-b:v") << QStringLiteral("0") << QStringLiteral("-row-mt")
           << QStringLiteral("1");
      break;
    case MovieFormat::Gif:
      // Two passes in one: a palette from the whole clip, then the frames mapped onto it.
      args << QStringLiteral("-filter_complex")
           << QStringLiteral(
                  "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=3");
      break;
    case MovieFormat::PngSequence:
      break;
  }
  // ffmpeg writes beside the movie under a name with the same extension (which picks its container),
  // renamed over the movie when it has finished: a failed recording never replaces a good one.
  const QFileInfo movie(settings_.path);
  partialPath_ =
      settings_.format == MovieFormat::PngSequence
          ? settings_.path
          : movie.dir().filePath(movie.completeBaseName() + QStringLiteral(".partial.") + movie.suffix());
  args << partialPath_;
  ffmpeg_ = std::make_unique<QProcess>();
  ffmpeg_->setProcessChannelMode(QProcess::SeparateChannels);
  ffmpeg_->start(program, args);
  if (!ffmpeg_->waitForStarted(10000)) {
    const QString why = ffmpeg_->errorString();
    ffmpeg_.reset();
    return QStringLiteral("%1: ffmpeg did not start: %2").arg(settings_.path, why);
  }
  open_ = true;
  return QString();
}

QString MovieEncoder::addFrame(const QImage& frame) {
  if (!open_) return QStringLiteral("%1: the movie is not open").arg(settings_.path);
  QImage image =
      frame.size() == size_ ? frame : frame.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  image = image.convertToFormat(QImage::Format_RGB888);
  if (settings_.format == MovieFormat::PngSequence) {
    const QString file =
        QDir(settings_.path).filePath(QStringLiteral("frame-%1.png").arg(frames_, 6, 10, QLatin1Char('0')));
    if (!image.save(file, "PNG")) return QStringLiteral("%1: cannot write the image").arg(file);
    pngBytes_ += QFileInfo(file).size();
    ++frames_;
    return QString();
  }
  // Rows of a QImage are padded to 4 bytes: write each row's pixels only.
  const qsizetype rowBytes = static_cast<qsizetype>(size_.width()) * 3;
  for (int y = 0; y < image.height(); ++y) {
    const char* row = reinterpret_cast<const char*>(image.constScanLine(y));
    if (ffmpeg_->write(row, rowBytes) != rowBytes) {
      return QStringLiteral("%1: ffmpeg stopped taking frames: %2")
          .arg(settings_.path, QString::fromLocal8Bit(ffmpeg_->readAllStandardError()).trimmed());
    }
  }
  // Keep the pipe from growing without bound: let ffmpeg catch up.
  const qint64 mostWaiting = std::max<qint64>(kMaxFramesWaitingBytes, 2 * rowBytes * image.height());
  while (ffmpeg_->bytesToWrite() > mostWaiting) {
    if (!ffmpeg_->waitForBytesWritten(30000)) break;
  }
  ++frames_;
  return QString();
}

QString MovieEncoder::finish() {
  if (!open_) return QString();
  open_ = false;
  if (!ffmpeg_) return QString();
  ffmpeg_->closeWriteChannel();
  if (!ffmpeg_->waitForFinished(120000)) {
    ffmpeg_->kill();
    return QStringLiteral("%1: ffmpeg did not finish").arg(settings_.path);
  }
  const QString errors = QString::fromLocal8Bit(ffmpeg_->readAllStandardError()).trimmed();
  const bool ok = ffmpeg_->exitStatus() == QProcess::NormalExit && ffmpeg_->exitCode() == 0;
  ffmpeg_.reset();
  if (!ok) {
    if (partialPath_ != settings_.path) QFile::remove(partialPath_);
    return QStringLiteral("%1: ffmpeg failed: %2").arg(settings_.path, errors);
  }
  if (partialPath_ != settings_.path) {
    QFile::remove(settings_.path);  // rename() does not replace; the new movie is complete by now
    if (!QFile::rename(partialPath_, settings_.path)) {
      return QStringLiteral("%1: the movie was written to %2 but could not be renamed")
          .arg(settings_.path, partialPath_);
    }
  }
  return QString();
}

qint64 MovieEncoder::bytesWaiting() const {
  return ffmpeg_ ? ffmpeg_->bytesToWrite() : 0;
}

qint64 MovieEncoder::bytesOnDisk() const {
  if (settings_.format == MovieFormat::PngSequence) return pngBytes_;
  return QFileInfo(settings_.path).size();
}

}  // namespace clumplab::gui

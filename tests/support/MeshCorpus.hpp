#pragma once
// The mesh corpus of the tests that feed meshes from outside the project to ClumpLab as users do
// (tst_mesh_corpus through clumplab-cli, tst_corpus_drops through the window): Debian's
// assimp-testmodels under /usr/share/assimp/models, installed by .ci/install-deps.
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QString>
#include <QStringList>

namespace clumplab::test {

inline const QString kCorpus = "/usr/share/assimp/models";

// The formats run: the four every mesh tool reads, and the corpus's formats whose files hold one
// object's triangles (or a few objects). Left out as scenes of many things (cameras, lights,
// animation, materials, terrain heights or a whole building) rather than one object's surface:
// Collada, glTF, FBX, Blender, LightWave, Irrlicht, IFC, OpenGEX, the game formats (MD2, MD5, MDL,
// MDC, HMP, TER, B3D) and motion capture (BVH, CSM).
inline const QStringList kFolders = {"STL", "OBJ", "PLY",  "OFF", "3DS", "3MF", "AC", "AMF",
                                     "ASE", "DXF", "MS3D", "NFF", "Q3D", "SMD", "X",  "XGL"};
inline const QStringList kExtensions = {"stl", "obj",  "ply", "off", "3ds", "3mf", "ac", "amf", "ase",
                                        "dxf", "ms3d", "nff", "q3o", "q3s", "smd", "x",  "xgl", "zgl"};

// Assimp's own phrases, which must never reach the user.
inline const QStringList kRawPhrases = {"orphaned", "Unable to open file", "No suitable reader",
                                        "AI_",      "ai_assert",           "No meshes remaining",
                                        "aiScene",  "Validation failed",   "ERROR: Failed to load"};

// The corpus's files of the formats run, relative to kCorpus, sorted.
inline QStringList corpusFiles() {
  QStringList files;
  QDirIterator it(kCorpus, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    const QString relative = QDir(kCorpus).relativeFilePath(path);
    const QString folder = relative.section('/', 0, 0);
    const QString extension = QFileInfo(path).suffix().toLower();
    const bool notAMesh =
        QStringList{"jpg", "jpeg", "png", "bmp", "tga", "dds", "mtl", "txt", "md"}.contains(extension) ||
        QFileInfo(path).baseName().compare("readme", Qt::CaseInsensitive) == 0;
    if (notAMesh) continue;
    if (kExtensions.contains(extension) || (kFolders.contains(folder) && extension.isEmpty()))
      files << relative;
  }
  files.sort();
  return files;
}

}  // namespace clumplab::test

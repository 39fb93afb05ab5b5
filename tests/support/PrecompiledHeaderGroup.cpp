// The one source of the object libraries that build the tests' precompiled headers
// (clumplab_test_pch_group in tests/CMakeLists.txt); it has nothing of its own.

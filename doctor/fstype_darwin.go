package doctor

import "golang.org/x/sys/unix"

// fsType names the file system of path (statfs f_fstypename) and says whether it is a network one.
func fsType(path string) (name string, shared bool) {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return "", false
	}
	name = unix.ByteSliceToString(st.Fstypename[:])
	switch name {
	case "nfs", "smbfs", "afpfs", "webdav":
		return name, true
	}
	return name, false
}

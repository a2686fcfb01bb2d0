package doctor

import "golang.org/x/sys/unix"

// Linux file system magic numbers (statfs f_type; linux/magic.h and the file systems' own headers) of the file
// systems doctor names, and whether they are shared between nodes.
var linuxFS = map[int64]struct {
	name   string
	shared bool
}{
	0x6969:     {"nfs", true},
	0xFF534D42: {"cifs", true},
	0xFE534D42: {"smb2", true},
	0x517B:     {"smb", true},
	0x0BD00BD0: {"lustre", true},
	0x47504653: {"gpfs", true},
	0x19830326: {"beegfs", true},
	0x00C36400: {"ceph", true},
	0x5346414F: {"afs", true},
	0xEF53:     {"ext4", false},
	0x58465342: {"xfs", false},
	0x9123683E: {"btrfs", false},
	0x2FC12FC1: {"zfs", false},
	0x01021994: {"tmpfs", false},
	0x794C7630: {"overlay", false},
}

// fsType names the file system of path and says whether it is a network one ("" when unknown).
func fsType(path string) (name string, shared bool) {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return "", false
	}
	fs := linuxFS[int64(st.Type)]
	return fs.name, fs.shared
}

//go:build amd64 && !purego

#include "textflag.h"

// func lineEndAVX2(b []byte) (nl int, special bool)
//
// 32 bytes a step: one compare for '\n', two for '\r' and ESC (0x1b), ORed; the step holding the first newline
// keeps the specials below it only. The last bytes (fewer than 32) one at a time.
TEXT ·lineEndAVX2(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	XORQ AX, AX        // offset of the step
	XORL R9, R9        // specials seen before it (a mask, or 1)
	MOVL $0x0a, DX
	MOVQ DX, X0
	VPBROADCASTB X0, Y0 // '\n'
	MOVL $0x0d, DX
	MOVQ DX, X1
	VPBROADCASTB X1, Y1 // '\r'
	MOVL $0x1b, DX
	MOVQ DX, X2
	VPBROADCASTB X2, Y2 // ESC

step:
	LEAQ 32(AX), CX
	CMPQ CX, BX
	JA   tail
	VMOVDQU (SI)(AX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPCMPEQB Y2, Y3, Y6
	VPOR Y5, Y6, Y5
	VPMOVMSKB Y4, R10
	VPMOVMSKB Y5, R11
	TESTL R10, R10
	JNZ  found
	ORL  R11, R9
	MOVQ CX, AX
	JMP  step

found:
	BSFL R10, CX       // the newline's place in the step
	MOVL $1, DX
	SHLL CX, DX
	DECL DX            // the bytes below it
	ANDL DX, R11
	ORL  R11, R9
	ADDQ CX, AX
	MOVQ AX, nl+24(FP)
	TESTL R9, R9
	SETNE special+32(FP)
	VZEROUPPER
	RET

tail:
	CMPQ AX, BX
	JAE  none
	MOVBLZX (SI)(AX*1), DX
	CMPB DL, $0x0a
	JEQ  tailnl
	CMPB DL, $0x0d
	JEQ  tailspecial
	CMPB DL, $0x1b
	JEQ  tailspecial
	INCQ AX
	JMP  tail

tailspecial:
	MOVL $1, R9
	INCQ AX
	JMP  tail

tailnl:
	MOVQ AX, nl+24(FP)
	TESTL R9, R9
	SETNE special+32(FP)
	VZEROUPPER
	RET

none:
	MOVQ $-1, nl+24(FP)
	TESTL R9, R9
	SETNE special+32(FP)
	VZEROUPPER
	RET

package io.topolens.nccl;

/**
 * The 1024 triples of bytes commonest in this project's real logs (its test resources' and
 * examples' 418 logs, 1.4 M triples of printable ASCII), commonest first: {@link NeedleSet} keys
 * each long needle by the eight bytes of it whose triples are least common here, so that its pass
 * over a log neither stops nor shortens its skips at every {@code ste} of {@code step} or {@code
 * ted} of {@code Allocated} (docs/performance.md, tenth pass). Made by {@code
 * bench/common-triples.py}.
 */
final class CommonTriples {
  private CommonTriples() {}

  static final String TEXT =
      ""
          + "   000CCLNCC NCCL  0xINFNFOFO ] N INL Ivm: 0  co0] 00 0x7x7f[0]:85m 0nt bufuff0 ct 0ankoun"
          + "unt opff 0 [ [0f 0m:8nne0 rranrechanommnel1] ann[1]com :  ->-> 2] reanks3] /-1[2] rer: [3]"
          + " [1 sestrer:mm ot O Cnra 0.m:1endoot7f5 Al0 ssenCou857 st4] 16 ypeecvpe  [2tat0.0 11ecttyp"
          + " Chdatcouroom:2] -216ata ro1/-treAllop  da127] sam eam: ondbdbuatys=4=4]opCpCocvbvbu [n[nr"
          + "ks=7fct 1  0321:18112Cha [37326 d273O Aterel theingath] vher:170x4-1/llGlGaGat1-> vi0 :to "
          + "viaia 0x2ed 8 [1 [P2Pp 0 P2 to80057: 4 7 [/0 :22 9  1 fffe 99 o858ng 8602249 [-1-f5dnita P"
          + "8592P/:86nk l 0GPU:19/0-ireon O R.00 2 catNETcclionncc ch NEpro0  60 cha483icevicdirx2b---"
          + " GP:93tedPU/RanloceduU/0  1duc90 58:uce/di pr20059:60::21attttees 0x3Redce 40 100: 0 ReceS"
          + "eScSca4:1O N3 [tio: 2evi186fc0gintescon ra buocaET/ 1[ockfcaonnntenecint -1lugugiet ckeDev"
          + "7:9er -1 1[1 0[ 7  Coa00 2[ct 8680[0ket7 o deMPLPLE8:1Initra2472 [e 7t p68:9402[257 els1  "
          + "ize  2Id 6 [fin:944 r0:1p 4 3[ pooinpoicaluda | : 1->1P/d3[3->0le dev50  3 7:8ac0 - 400==="
          + " loLE cti> 1ks yteCon nc170ini->2l 1Soc:23s -BytPU 04::24s 4704rox713sinoxy24624 odet t32 "
          + "  3xy a0 ev 58 lgoin ze  noc0 cudall1 2:11.2359 s, > 2180rototox4424564 x48459ING5df3731:1"
          + "MEMx243c5448eacb3a3c983b3b32b73a0c50at 0 (83713cc900 GAlg59eb7180 o R9ea73csizo SRINgo c00"
          + "NG 0.. By> A RIG pel{l{L{LoLo.o....H.HiHi}i}=}={={0{0. SIx4bx32SIMIMPE c..223}CUMUMEP/C/CU"
          + "a82820 10ort 20mmIal  in> 01885d5porca8c06:255 [Usibus Usersver38 d 00, raplibent70 floloa"
          + "t  cl-2  4  119ork1:2 22202ate pe8:9 In61:8:8net> 30:9 alCPUf5b4 [n: 9:8or wore 19:90-0 li"
          + "ls,00: nrbleNVL  f196 cuest4 ce 0 fl6  808abld s CP961: 3oat0:8rink 0580080358  -Com172 32"
          + "ityf5e2p timffiareset siPluusIsId8  33 daDilenfinotharonffig:20 pls 0152te  nv31 plu225ls "
          + "818da0e 2 shshalRaalR7]  su for 0Pro9:2 21.0/ is21  1//Plin:938432081258re ] [4 :0->  s512"
          + "510 onrteO I>0-0/0010933->->-1e  7fbd n 00 2/62fpeeum a51 13e bce82bc0 112 :272549312f0it "
          + ">1-.so2/-c7dbc6a604bcba5 fibcee8d8da2ba32bc62x3c3c77dadaaaa60 -214sumoll DePHBffenkCfer.0."
          + "] 1464546643oreeab] 2[20cteb012 Bm  aliclClColl nd : CB)  SoaDe8:2ld eadste tirrororO n, t"
          + " NV->3indoululd0-62 3hre  4nod0486:2env3->0 nty O T tr2->llod tO Ures>3-2495:2/PH:50ail00,"
          + "HB)0:0192>2-O c248ibnbncfor1786] opo/243/--11t fd:  16235mIneer0.2>0 271otststitRtRaperc 0"
          + "fcbcol 3/<0>: UiveT/S/So, r00/and] 3cesig 2.2 1249:0:287 >2 ker enist>1 kCol rethtor52 2 p"
          + "88 ngs = 23619110448 CL_ fa3:121: vmsioled riemo48.145e088.0menk 1:91ET cor71546 1/0min.cc"
          + " SeDesst 101cc:rsi0x5 UDUDS:00 th2, 520dfc6a0535erv7:2026 5111-- Ifa0ign: le 3rou6e0anscb0"
          + "06a-0:3  d53th0182spond:4851, nspdfa06ed5226-l 2/IB 01a Noup210d80f5ag 09  atiimi [P/64/8/"
          + "0x019801:45: 2.T p89 8248801-28/6d 8k 346:ern5761:5.0 v 04 |k 2p2p86 o 1O [ess[Pr1 -id rvi"
          + "49 -21 usU c50:0.1: 4lDenvm-80] D5] g cvmlmlDe] out-700-8b3fc806-1 p2p cOMPo fap  af-90dle"
          + "s 1O P-600-70-9ronS c COCOM, i173fc8d NLETETERinree1 n24:aff47  Rivirromom 864r dma--0-fro"
          + "o pndl 15 grrt 0.8| 5 ha783 fre-0ime1.2g nis  bymIderr:157  Ser209.0101 04 0x6de-174) GT/I"
          + "O  h0:e ptal0 t2P t cainstaiti17]2 -by  Tr15 P2p, a39  455  3, et/fbeotaU a097 (2orctot02 "
          + "y Srai193b14";
}

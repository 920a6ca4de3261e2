# figures/tp-pp-diagram.gp -- which tensors tensor and pipeline parallelism split and where
# they communicate (chapter 4), labelled with the plan's own numbers.
# Dataset tp-pp-diagram (calc/catalog_comm.c): one row per pipeline stage with stage,
# first_layer, last_layer, layers, embedding, head, and the plan-wide tp, pp, vpp, sp (yes/no),
# heads_per_gpu, tp_message_bytes, tp_coll_bytes [B], tp_colls_fwd, tp_colls_bwd, tp_tier,
# send_bytes [B], pp_tier (tiers: 0 NVLink, 1 network).
# Top: one transformer layer under TP (Narayanan et al. 2021 §2.3: QKV and the MLP's first
# matrix split by columns, out-projection and the second matrix by rows), with its
# all-reduces, or with SP the all-gather before and the reduce-scatter after each block
# (Korthikanti et al. 2022 §4.2.2).  Bottom: the layer stack cut into p stages with the
# point-to-point sends between them (Narayanan et al. 2021 §2.2).  Its own canvas: taller
# than the other charts and smaller in SVG units, so that drawn across the text width its
# labels are a third larger than theirs and read on a projector.

if (device eq 'png') {
	set terminal pngcairo size 1440,1040 noenhanced font 'DejaVu Sans,13' fontscale 2 linewidth 2 background rgb 'white'
} else {
	set terminal svg size 560,404 noenhanced font 'DejaVu Sans,13' linewidth 1.2 background rgb 'white'
}
set output outfile

stats datafile using "tp" nooutput name "TP"
stats datafile using "pp" nooutput name "PP"
stats datafile using "vpp" nooutput name "V"
stats datafile using (strcol("sp") eq "yes" ? 1 : 0) nooutput name "SP"
stats datafile using "heads_per_gpu" nooutput name "HD"
stats datafile using "tp_message_bytes" nooutput name "MSG"
stats datafile using "tp_coll_bytes" nooutput name "COLL"
stats datafile using "tp_colls_fwd" nooutput name "CF"
stats datafile using "tp_colls_bwd" nooutput name "CB"
stats datafile using "tp_tier" nooutput name "TT"
stats datafile using "send_bytes" nooutput name "SEND"
stats datafile using "pp_tier" nooutput name "PT"
stats datafile using "last_layer" nooutput name "LL"
t = int(TP_max); p = int(PP_max); v = int(V_max); sp = int(SP_max)
L = int(LL_max) + 1
tier(x) = x > 0 ? 'the network' : 'NVLink'
mb(x) = x >= 1e9 ? sprintf('%.2f GB', x / 1e9) : sprintf('%.1f MB', x / 1e6)

unset border; unset tics; unset key; unset grid
set margins 0, 0, 0, 0
set xrange [0:104]
set yrange [0:100]

# the colours of figures/style.gp, one per meaning across the report: the layers' GEMMs
# and the stages that hold them are compute (c_compute), the collectives inside a layer
# TP's (c_tp), the sends between stages PP's (c_pp); text is ink, so that it reads
c_blk = c_compute; c_coll = c_tp; c_send = c_pp; c_stage = c_compute; c_ink = "#222222"; c_note = "#444444"
fs = ',14'

# ------------------------------------------------------------------ tensor parallelism
set label 1 (t > 1 ? sprintf('Tensor parallelism: one layer split over t = %d GPUs', t) \
                   : 'Tensor parallelism: t = 1, each GPU computes whole layers') \
    at 1, 96 left font ',17' tc rgb c_ink
# blocks: x from, x to, name, split (1 by columns, 2 by rows, 0 none)
bx0 = "8 23 38 66 81"; bx1 = "21 36 51 79 94"
bname = "QKV attention out-proj MLP-up MLP-down"
bsplit = "1 0 2 1 2"
y0 = 70; y1 = 84
do for [i = 1:5] {
	xa = real(word(bx0, i)); xb = real(word(bx1, i)); k = int(word(bsplit, i))
	if (t > 1) {
		# the other GPUs' slices, drawn as shadows behind the block
		set object (10 + i) rect from xa + 1.2, y0 + 2.4 to xb + 1.2, y1 + 2.4 fc rgb '#BBD7EC' fs solid 1.0 border rgb '#ffffff' lw 1 behind
	}
	set object (20 + i) rect from xa, y0 to xb, y1 fc rgb c_blk fs solid 1.0 border rgb '#ffffff' lw 1
	name = word(bname, i); name = name eq 'MLP-up' ? 'MLP up' : name eq 'MLP-down' ? 'MLP down' : name
	set label (30 + i) name at (xa + xb) / 2, y1 + 5.5 center font fs tc rgb c_ink
	sub = i == 2 ? (t > 1 ? sprintf('%d heads', int(HD_max)) : 'all heads') : \
	      t == 1 ? 'whole' : k == 1 ? 'by columns' : 'by rows'
	set label (40 + i) sub at (xa + xb) / 2, y0 - 4 center font ',13' tc rgb c_ink
	# the split drawn inside the block: t slices, this GPU's in white
	n = t > 8 ? 8 : t
	if (t > 1 && k > 0) {
		do for [j = 1:n-1] {
			if (k == 1) {
				set arrow (100 + 10 * i + j) from xa + j * (xb - xa) / n, y0 to xa + j * (xb - xa) / n, y1 nohead lc rgb '#ffffff' lw 1.5 front
			} else {
				set arrow (100 + 10 * i + j) from xa, y0 + j * (y1 - y0) / n to xb, y0 + j * (y1 - y0) / n nohead lc rgb '#ffffff' lw 1.5 front
			}
		}
	}
}
# forward flow between the blocks
do for [i = 1:4] {
	xa = real(word(bx1, i)); xb = real(word(bx0, i + 1))
	set arrow (200 + i) from xa, (y0 + y1) / 2 to xb, (y0 + y1) / 2 head size 0.8, 25 filled lc rgb c_ink lw 1.5
}
# the collectives: all-reduce after out-proj and MLP down; with SP an all-gather before
# QKV and MLP up and a reduce-scatter after out-proj and MLP down
# (near-black text on TP's orange, which white would not stand out from)
mk(id, x, txt) = sprintf('set object %d rect from %g, %g to %g, %g fc rgb "%s" fs solid 1.0 border rgb "#ffffff" lw 1 front; set label %d "%s" at %g, %g center font ",13" tc rgb "#111111" front', \
                         id, x - 3, y0 + 1.5, x + 3, y1 - 1.5, c_coll, id + 50, txt, x, (y0 + y1) / 2)
if (t > 1) {
	if (sp) {
		eval mk(301, 4.2, 'AG')
		eval mk(302, 55.2, 'RS')
		eval mk(303, 61.8, 'AG')
		eval mk(304, 98.4, 'RS')
		set arrow 209 from 7.2, (y0 + y1) / 2 to 8, (y0 + y1) / 2 nohead lc rgb c_ink lw 1.5
	} else {
		eval mk(302, 58.5, 'AR')
		eval mk(304, 98.4, 'AR')
	}
	set label 61 (sp ? sprintf('AG, RS: all-gather, reduce-scatter of b·s·h = %s,', mb(MSG_max)) \
	                 : sprintf('AR: all-reduce of b·s·h = %s,', mb(MSG_max))) \
	    at 1, 59.5 left font fs tc rgb c_ink
	set label 62 (sp ? sprintf('%s sent per GPU for each pair, over %s;', mb(COLL_max), tier(TT_max)) \
	                 : sprintf('%s sent per GPU for each, over %s;', mb(COLL_max), tier(TT_max))) \
	    at 1, 54.5 left font fs tc rgb c_ink
	set label 63 sprintf('per layer and micro-batch %d forward, %d backward', \
	                     int(CF_max) * (sp ? 2 : 1), int(CB_max) * (sp ? 2 : 1)) \
	    at 1, 49.5 left font fs tc rgb c_ink
} else {
	set label 61 'no collectives inside the layer: nothing is split' at 1, 58 left font fs tc rgb c_note
}

# ------------------------------------------------------------------ pipeline parallelism
set arrow 400 from 0.5, 46.5 to 103.5, 46.5 nohead lc rgb '#cccccc' lw 1
set label 2 (p > 1 ? sprintf('Pipeline parallelism: %d layers in p = %d stages', L, p) \
                   : sprintf('Pipeline parallelism: p = 1, all %d layers in one stage', L)) \
    at 1, 41.5 left font ',17' tc rgb c_ink
# at most four boxes: stages 0, 1, ..., p-1 with the middle ones elided
nslot = p > 4 ? 4 : p
slotw = 104.0 / (nslot > 1 ? nslot : 3)
off = nslot > 1 ? 0 : slotw
slot(st) = p <= 4 ? st : st < 2 ? st : st == p - 1 ? 3 : 1/0
sx(st) = off + slot(st) * slotw + slotw / 2
bw = nslot == 1 ? 28 : slotw - 6 < 22 ? slotw - 6 : 22
sy0 = 15; sy1 = 35
if (p > 4) {
	set label 70 '…' at 2 * slotw + slotw / 2, (sy0 + sy1) / 2 center font ',22' tc rgb c_ink
	set label 71 (p > 5 ? sprintf('stages 2-%d', p - 2) : 'stage 2') at 2 * slotw + slotw / 2, sy0 + 1 center font ',13' tc rgb c_note
}
if (p > 1) {
	do for [i = 0:nslot - 2] {
		xa = off + i * slotw + slotw / 2 + bw / 2; xb = off + (i + 1) * slotw + slotw / 2 - bw / 2
		if (p > 4 && i == 1) { xb = xb + bw / 2 - 3 }
		if (p > 4 && i == 2) { xa = xa - bw / 2 + 3 }
		set arrow (410 + i) from xa, 26 to xb, 26 head size 0.8, 25 filled lc rgb c_send lw 2.5
		set arrow (420 + i) from xb, 20 to xa, 20 head size 0.8, 25 filled lc rgb c_send lw 2.5 dt 2
	}
	set label 64 sprintf('→ activation forward, ← gradient backward: %s', mb(SEND_max)) \
	    at 1, 8.5 left font fs tc rgb c_send
	set label 65 sprintf('per GPU and send, once per micro-batch%s, over %s', \
	                     v > 1 ? ' and chunk' : '', tier(PT_max)) \
	    at 1, 3 left font fs tc rgb c_send
} else {
	set label 64 'nothing is sent between stages' at 1, 4 left font fs tc rgb c_note
}

l1(st) = sprintf('stage %d', st)
l2(d) = v > 1 ? sprintf('%d layers', column("layers")) : \
        column("layers") == 1 ? sprintf('layer %d', column("first_layer")) : \
        sprintf('layers %d-%d', column("first_layer"), column("last_layer"))
l3(d) = column("embedding") > 0 && column("head") > 0 ? '+ embed., head' : \
        column("embedding") > 0 ? '+ embedding' : column("head") > 0 ? '+ LM head' : \
        v > 1 ? sprintf('in %d chunks', v) : ''

plot datafile using (sx(column("stage"))):((sy0 + sy1) / 2):(bw / 2):((sy1 - sy0) / 2) \
         with boxxyerror fc rgb c_stage fs solid 1.0 border rgb '#ffffff', \
     '' using (sx(column("stage"))):(sy1 - 4.5):(l1(column("stage"))) with labels font fs tc rgb '#ffffff', \
     '' using (sx(column("stage"))):((sy0 + sy1) / 2 - 0.5):(l2(0)) with labels font ',13' tc rgb '#ffffff', \
     '' using (sx(column("stage"))):(sy0 + 4):(l3(0)) with labels font ',13' tc rgb '#ffffff'
